import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { IconCopy } from '@tabler/icons-react';
import { ExternalLinkButton } from '../../../../components/ExternalLinkButton';
import { notify } from '../../../../components/toasts';

export const CODE_NOT_FOUND = 'Code not found, try again later';

/** A failed verify, said once in the step: the code was looked up and not found (or no answer), and why. */
export interface VerifyFailure {
  codeNotFound: boolean;
  sentence: string;
}

const texts = {
  conflict: {
    intro:
      'This VRChat account is already linked to another Discord account. Unlink it there, or prove that it is yours: put the verification code below in your VRChat profile bio and press Verify Ownership.',
    copy: 'Copy Code',
    verify: 'Verify Ownership',
  },
  unverified: {
    intro:
      'Your VRChat account is linked, but its ownership is not verified yet. Put the verification code below in your VRChat profile bio and press Verify Account.',
    copy: 'Copy',
    verify: 'Verify Account',
  },
};

interface Props {
  /** conflict: step 101 (linked to someone else); unverified: step 102 (linked, not verified). */
  kind: keyof typeof texts;
  code: string;
  profileUrl: string;
  /** Why the last verify failed; null when it has not failed. */
  failure: VerifyFailure | null;
  verifying: boolean;
  onBack: () => void;
  onVerify: () => void;
}

async function copy(code: string) {
  try {
    await navigator.clipboard.writeText(code);
    notify({ type: 'success', message: 'Verification code copied.' });
  } catch {
    notify({ type: 'error', message: 'Could not copy the code; select it and copy it by hand.' });
  }
}

/** Steps 101 and 102: the code to put in the VRChat bio, and the button that checks for it. */
export function CodeStep({ kind, code, profileUrl, failure, verifying, onBack, onVerify }: Props) {
  const text = texts[kind];
  return (
    <Stack gap="md">
      <Text size="sm">{text.intro}</Text>
      <Stack gap={4}>
        <Text size="sm" fw={500} id="verification-code-label">
          Verification code
        </Text>
        <Code
          block
          fz="lg"
          ta="center"
          aria-labelledby="verification-code-label"
          style={{ userSelect: 'all' }}
        >
          {code}
        </Code>
      </Stack>
      {failure && (
        <Alert
          color="red"
          variant="light"
          role="alert"
          title={failure.codeNotFound ? CODE_NOT_FOUND : undefined}
        >
          {failure.sentence}
        </Alert>
      )}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onBack} disabled={verifying}>
          Back
        </Button>
        <Button variant="default" leftSection={<IconCopy size={16} />} onClick={() => void copy(code)}>
          {text.copy}
        </Button>
        <ExternalLinkButton href={profileUrl} size="sm">
          Open Profile
        </ExternalLinkButton>
        <Button onClick={onVerify} loading={verifying} data-autofocus>
          {text.verify}
        </Button>
      </Group>
    </Stack>
  );
}
