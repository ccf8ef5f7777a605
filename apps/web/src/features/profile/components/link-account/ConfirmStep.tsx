import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { VrchatUserResult } from '../../api/searchVrchatUsers';

interface Props {
  user: VrchatUserResult;
  onBack: () => void;
  onConfirm: () => void;
  pending: boolean;
}

/** Step 1: the chosen account, Back or Confirm. */
export function ConfirmStep({ user, onBack, onConfirm, pending }: Props) {
  return (
    <Stack gap="md">
      <Text>Link this VRChat account to your Discord account?</Text>
      <Paper withBorder p="md" radius="md">
        <Text fw={600}>{user.displayName}</Text>
        <Text size="sm" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {user.id}
        </Text>
      </Paper>
      <Group justify="flex-end">
        <Button variant="default" onClick={onBack} disabled={pending}>
          Back
        </Button>
        <Button onClick={onConfirm} loading={pending} data-autofocus>
          Confirm
        </Button>
      </Group>
    </Stack>
  );
}
