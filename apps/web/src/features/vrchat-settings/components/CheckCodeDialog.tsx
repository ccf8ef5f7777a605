import { Alert, Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { DialogActions } from '../../../components/DialogActions';
import { notify } from '../../../components/toasts';
import { VrchatSlowNotice } from '../../../lib/vrchat-wait';
import { useJoinGroupLink } from '../api/joinGroupLink';
import { linkFailureText } from '../linkErrors';

interface Props {
  guildId: string;
  groupId: string;
  found: boolean;
  invitesUrl: string | undefined;
  /** The bot account chosen to serve the group (named in the hints). */
  botName?: string;
  onClose: () => void;
}

const waiting = (bot: string | undefined) => ({
  Requested: `The bot${bot ? ` (${bot})` : ''} asked to join the group. Accept its join request in the group's settings, then press Link Group again.`,
  Invited: `The group is invite-only: invite the bot${bot ? ` (${bot})` : ''} to the group, then press Link Group again.`,
});

/** After Check Code: code not found (retry), or found with Link Group. */
export function CheckCodeDialog({ guildId, groupId, found, invitesUrl, botName, onClose }: Props) {
  const join = useJoinGroupLink(guildId);
  const [hint, setHint] = useState<string | null>(null);

  const link = () =>
    join.mutate(groupId, {
      onSuccess: ({ status, botAccount }) => {
        if (status === 'Member') {
          notify({ type: 'success', message: 'Group successfully linked' });
          onClose();
        } else if (status === 'Requested' || status === 'Invited')
          setHint(waiting(botAccount?.displayName ?? botName)[status]);
        else notify({ type: 'error', message: `Error while linking (${status})` });
      },
      onError: (error) =>
        notify({ type: 'error', message: linkFailureText(error, `Error while linking: ${error.message}`) }),
    });

  return (
    <Modal
      opened
      onClose={onClose}
      centered
      title={found ? 'Code found in group description' : 'Code not found in group description'}
    >
      {found ? (
        <Stack>
          <Text size="sm">The bot's VRChat account must be a member of the group to link it.</Text>
          {hint && (
            <Alert color="yellow" variant="light">
              {hint}
            </Alert>
          )}
          <Anchor href={invitesUrl} target="_blank" rel="noopener noreferrer" size="sm">
            Open the group's invites and join requests
          </Anchor>
          <DialogActions
            onCancel={onClose}
            cancelLabel="Close"
            onConfirm={link}
            confirmLabel="Link Group"
            loading={join.isPending}
          />
          <VrchatSlowNotice pending={join.isPending} />
        </Stack>
      ) : (
        <Stack>
          <Text size="sm">
            Save the link code in the group's description, wait a moment and press Check Code again.
          </Text>
          <Group justify="flex-end">
            <Button onClick={onClose}>Close</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
