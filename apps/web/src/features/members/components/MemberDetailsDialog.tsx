import { Alert, Badge, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { roleColor } from '../../../components/roleColor';
import { useMemberDetails } from '../api/memberDetails';

export function MemberDetailsDialog({
  guildId,
  memberId,
  onClose,
}: {
  guildId: string;
  memberId: string | null;
  onClose: () => void;
}) {
  const details = useMemberDetails(guildId, memberId);
  return (
    <Modal opened={memberId !== null} onClose={onClose} title="Member Details">
      <Stack>
        <Text size="sm">Discord ID: {memberId}</Text>
        {details.isPending ? (
          <Loader size="sm" aria-label="Loading member" />
        ) : details.isError ? (
          <Alert color="red" variant="light" role="alert">
            Failed to load the member.
          </Alert>
        ) : details.data.discordRoles.length === 0 ? (
          <Text c="dimmed">No roles.</Text>
        ) : (
          <Group gap={6} aria-label="Roles">
            {details.data.discordRoles.map((r) => (
              <Badge key={r.id} variant="outline" color={roleColor(r.color)}>
                {r.name}
              </Badge>
            ))}
          </Group>
        )}
      </Stack>
    </Modal>
  );
}
