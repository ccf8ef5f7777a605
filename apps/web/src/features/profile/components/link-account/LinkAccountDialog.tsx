import { Modal, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../../../api/errors';
import { usePublicConfig } from '../../../../api/publicConfig';
import { notify } from '../../../../components/toasts';
import { failureSentence } from '../../../../lib/failure-sentence';
import { VrchatSlowNotice, vrchatRetrySentence } from '../../../../lib/vrchat-wait';
import { useCheckVrchatUser } from '../../api/checkVrchatUser';
import { useLinkVrchatUser } from '../../api/linkVrchatUser';
import { useProfile } from '../../api/profile';
import type { VrchatUserResult } from '../../api/searchVrchatUsers';
import { useVerifyVrchatUser } from '../../api/verifyVrchatUser';
import { CodeStep, type VerifyFailure } from './CodeStep';
import { ConfirmStep } from './ConfirmStep';
import { SearchStep } from './SearchStep';
import { VerifiedStep } from './VerifiedStep';

/** The spec's step numbers: 0 search, 1 confirm, 2 verified, 101 conflict, 102 linked but not verified. */
export type LinkStep = 0 | 1 | 2 | 101 | 102;

export const VERIFY_FAILED =
  'Failed to verify account. Make sure you have the verification code in your bio.';

const titles: Record<LinkStep, string> = {
  0: 'Link Account',
  1: 'Confirm Link',
  2: 'Account Linked',
  101: 'Account Already Linked',
  102: 'Verify Your Account',
};

/**
 * The multi-step flow; mounted fresh on every opening, so it starts at step 0, or, to finish verifying an
 * account already linked (`resume`), at that account's code (102, or 101 for a conflict).
 */
function LinkAccountFlow({
  onClose,
  setTitle,
  resume,
}: {
  onClose: () => void;
  setTitle: (title: string) => void;
  resume: VrchatUserResult | null;
}) {
  const vrchatWebUrl = usePublicConfig()?.vrchatWebUrl;
  const [step, setStepState] = useState<LinkStep>(0);
  const [text, setText] = useState('');
  const [selected, setSelected] = useState<VrchatUserResult | null>(null);
  const [code, setCode] = useState('');
  const [verifyFailure, setVerifyFailure] = useState<VerifyFailure | null>(null);
  const check = useCheckVrchatUser();
  const link = useLinkVrchatUser();
  const verify = useVerifyVrchatUser();
  const current = useProfile().data?.linkData ?? null;
  // A second click before React re-renders with isPending would send a second link request.
  const linking = useRef(false);
  // Each step's main control ([data-autofocus]) takes focus when the step changes: the button that moved on
  // (Link, Confirm, Verify) is gone with its step, and focus fell to the page. Mantine focuses it only at
  // opening; what happened is said by the toasts, a polite live region.
  const steps = useRef<HTMLDivElement>(null);
  const shownStep = useRef(step);
  // Resuming: the account's code is asked for once, as picking it in the search would.
  const resumed = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on opening
  useEffect(() => {
    if (!resume || resumed.current) return;
    resumed.current = true;
    pick(resume, true);
  }, []);
  useEffect(() => {
    if (shownStep.current === step) return;
    shownStep.current = step;
    steps.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, [step]);

  const setStep = (next: LinkStep) => {
    setStepState(next);
    setTitle(titles[next]);
    setVerifyFailure(null);
  };

  // Picked in the search: Confirm next. Resumed (already linked to this user): straight to its code.
  const pick = (user: VrchatUserResult, linked = false) => {
    setSelected(user);
    check.mutate(user.id, {
      onSuccess: (result) => {
        setCode(result.verificationCode);
        setStep(result.status === 'Conflict' ? 101 : linked ? 102 : 1);
      },
      onError: (error) =>
        notify({
          type: 'error',
          message: vrchatRetrySentence(error) ?? errorMessage(error, 'Failed to check the VRChat account.'),
        }),
    });
  };

  const confirm = (user: VrchatUserResult) => {
    if (linking.current) return;
    linking.current = true;
    link.mutate(user.id, {
      onSettled: () => {
        linking.current = false;
      },
      onSuccess: (result) => {
        if (result.status === 'SuccessVerified') {
          setStep(2);
          notify({ type: 'success', message: 'Account Ownership Verified' });
        } else {
          setStep(102);
          notify({ type: 'success', message: 'Account Linked' });
        }
      },
      onError: (error) =>
        notify({
          type: 'error',
          message: vrchatRetrySentence(error) ?? errorMessage(error, 'Failed to link the account.'),
        }),
    });
  };

  // A verify that finds the code links the account with ownership verified (or moves it here), so it goes
  // straight to step 2: a Confirm after it would only send the same link again. A failure is said once, in
  // the step's own alert (no toast as well).
  const verifyOwnership = (user: VrchatUserResult) =>
    verify.mutate(user.id, {
      onSuccess: () => {
        setStep(2);
        notify({ type: 'success', message: 'Account Ownership Verified' });
      },
      onError: (error) => {
        // VRChat limiting requests is no lookup that failed: only when to try again.
        const retry = vrchatRetrySentence(error);
        setVerifyFailure(
          retry
            ? { codeNotFound: false, sentence: retry }
            : { codeNotFound: true, sentence: failureSentence(VERIFY_FAILED, error) },
        );
      },
    });

  return (
    <Stack gap="sm" ref={steps}>
      {stepContent()}
      <VrchatSlowNotice pending={check.isPending || link.isPending || verify.isPending} />
    </Stack>
  );

  function stepContent() {
    if (step === 0 || !selected) {
      return (
        <SearchStep
          text={text}
          onTextChange={setText}
          onPick={(user) => pick(user)}
          checkingId={check.isPending ? (check.variables ?? null) : null}
        />
      );
    }
    if (step === 1) {
      return (
        <ConfirmStep
          user={selected}
          replacesVerified={current?.isVerified && current.id !== selected.id ? current.vrchatName : null}
          onBack={() => setStep(0)}
          onConfirm={() => confirm(selected)}
          pending={link.isPending}
        />
      );
    }
    if (step === 2) return <VerifiedStep onClose={onClose} />;
    return (
      <CodeStep
        kind={step === 101 ? 'conflict' : 'unverified'}
        code={code}
        profileUrl={vrchatWebUrl ? `${vrchatWebUrl}/home/user/${selected.id}` : selected.profileUrl}
        failure={verifyFailure}
        verifying={verify.isPending}
        onBack={() => setStep(0)}
        onVerify={() => verifyOwnership(selected)}
      />
    );
  }
}

/**
 * The Link Account dialog (spec section 4); full screen on phones. With `resume` (the Profile's Verify Account for
 * a linked account not yet verified) it opens on that account's code instead of the search.
 */
export function LinkAccountDialog({
  opened,
  onClose,
  resume = null,
}: {
  opened: boolean;
  onClose: () => void;
  resume?: VrchatUserResult | null;
}) {
  const isPhone = useMediaQuery('(max-width: 36em)');
  const [title, setTitle] = useState(titles[0]);
  const [session, setSession] = useState(0);
  const [wasOpened, setWasOpened] = useState(opened);
  // Each opening starts a new flow (step 0, empty search, no selection).
  if (opened !== wasOpened) {
    setWasOpened(opened);
    if (opened) {
      setSession((n) => n + 1);
      setTitle(titles[0]);
    }
  }
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg" fullScreen={isPhone}>
      <LinkAccountFlow key={session} onClose={onClose} setTitle={setTitle} resume={resume} />
    </Modal>
  );
}
