import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { VrchatUserResult } from '../../api/searchVrchatUsers';
import { VrchatUserAvatar } from './VrchatUserAvatar';

interface Props {
  user: VrchatUserResult;
  /** The name of the VRChat account the user is verified-linked to now, when confirming would replace it. */
  replacesVerified?: string | null;
  onBack: () => void;
  onConfirm: () => void;
  pending: boolean;
}

/**
 * Step 1: the chosen account, Back or Confirm. Linking replaces the current link, so a verified link to
 * another account is named first (the new link may well be unverified).
 */
export function ConfirmStep({ user, replacesVerified, onBack, onConfirm, pending }: Props) {
  return (
    <Stack gap="md">
      <Text>Link this VRChat account to your Discord account?</Text>
      <Paper withBorder p="md" radius="md">
        <Group gap="md" wrap="nowrap">
          <VrchatUserAvatar user={user} size={64} />
          <Stack gap={0} miw={0}>
            <Text fw={600}>{user.displayName}</Text>
            <Text size="sm" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
              {user.id}
            </Text>
          </Stack>
        </Group>
      </Paper>
      {replacesVerified && (
        <Alert color="orange" variant="light" role="alert">
          This replaces your verified link to {replacesVerified}.
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onBack} disabled={pending}>
          Back
        </Button>
        <Button onClick={onConfirm} loading={pending} disabled={pending} data-autofocus>
          Confirm
        </Button>
      </Group>
    </Stack>
  );
}
