import { Button, Group } from '@mantine/core';
import { IconLink, IconLinkOff, IconRefresh, IconShieldCheck, IconUsersGroup } from '@tabler/icons-react';
import type { UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { notify } from '../../../components/toasts';
import { failureSentence } from '../../../lib/failure-sentence';
import { useRefreshLink } from '../api/refreshLink';
import { useResetGroupInvites } from '../api/resetGroupInvites';
import { useUnlinkAccount } from '../api/unlinkAccount';

type ActionId = 'refresh' | 'unlink' | 'reset';

const actions: Record<
  ActionId,
  { label: string; question: string; success: string; failure: string; icon: typeof IconRefresh }
> = {
  refresh: {
    label: 'Refresh Link',
    question: 'Read your VRChat account again to update its name and age verification?',
    success: 'Link refreshed.',
    failure: 'An error occurred while refreshing the link.',
    icon: IconRefresh,
  },
  unlink: {
    label: 'Unlink Account',
    question:
      'Unlink your VRChat account from your Discord account? Roles that depend on the link may be removed.',
    success: 'Account unlinked.',
    failure: 'An error occurred while unlinking the account.',
    icon: IconLinkOff,
  },
  reset: {
    label: 'Reset Group Invites',
    question: 'Forget the VRChat group invites already sent to you, so the groups can invite you again?',
    success: 'Group invites reset.',
    failure: 'An error occurred while resetting group invites.',
    icon: IconUsersGroup,
  },
};

// The dangerous one last, set apart (outlined red).
const order: ActionId[] = ['refresh', 'reset', 'unlink'];

/** 'Link Account' always; the three link actions only with a link, each confirmed first. */
export function ProfileActions({
  linked,
  onLinkAccount,
  onVerify,
}: {
  linked: boolean;
  onLinkAccount: () => void;
  /** Set for a linked account whose ownership is not verified yet: finishes verifying it. */
  onVerify?: () => void;
}) {
  const mutations: Record<ActionId, UseMutationResult<unknown, Error, void>> = {
    refresh: useRefreshLink(),
    unlink: useUnlinkAccount(),
    reset: useResetGroupInvites(),
  };
  const [asking, setAsking] = useState<ActionId | null>(null);
  // Kept while the modal closes so its text does not vanish mid-transition.
  const [lastAsked, setLastAsked] = useState<ActionId>('refresh');

  const confirm = () => {
    if (!asking) return;
    const action = actions[asking];
    setAsking(null);
    mutations[asking].mutate(undefined, {
      onSuccess: () => notify({ type: 'success', message: action.success }),
      onError: (err) => notify({ type: 'error', message: failureSentence(action.failure, err) }),
    });
  };

  return (
    <Group gap="sm">
      <Button leftSection={<IconLink size={18} />} onClick={onLinkAccount}>
        Link Account
      </Button>
      {onVerify && (
        <Button leftSection={<IconShieldCheck size={18} />} variant="light" color="orange" onClick={onVerify}>
          Verify Account
        </Button>
      )}
      {linked &&
        order.map((id) => {
          const { label, icon: Icon } = actions[id];
          return (
            <Button
              key={id}
              variant={id === 'unlink' ? 'outline' : 'default'}
              color={id === 'unlink' ? 'red' : undefined}
              leftSection={<Icon size={18} />}
              loading={mutations[id].isPending}
              onClick={() => {
                setAsking(id);
                setLastAsked(id);
              }}
            >
              {label}
            </Button>
          );
        })}
      <ConfirmDialog
        opened={asking !== null}
        title={actions[lastAsked].label}
        confirmColor={lastAsked === 'unlink' ? 'red' : undefined}
        // The spec names these buttons Confirm / Cancel.
        confirmLabel="Confirm"
        onConfirm={confirm}
        onCancel={() => setAsking(null)}
      >
        {actions[lastAsked].question}
      </ConfirmDialog>
    </Group>
  );
}
