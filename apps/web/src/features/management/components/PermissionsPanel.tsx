import {
  ActionIcon,
  Alert,
  Avatar,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconPencil, IconUserPlus, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { notify } from '../../../components/toasts';
import { failureSentence } from '../../../lib/failure-sentence';
import { useDeletePermissions } from '../api/deletePermissions';
import { type PermissionEntry, usePermissions } from '../api/permissions';
import { PermissionBadge } from './PermissionBadge';
import { PermissionEditor } from './PermissionEditor';

/** 'Admins & Permissions': who was granted what in this server. */
export function PermissionsPanel({ guildId }: { guildId: string }) {
  const permissions = usePermissions(guildId);
  const remove = useDeletePermissions(guildId);
  const [editing, setEditing] = useState<PermissionEntry | 'new' | null>(null);
  const [deleting, setDeleting] = useState<PermissionEntry | null>(null);
  const name = (e: PermissionEntry) => e.username ?? e.userId;

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.userId, {
      onSuccess: () => notify({ type: 'success', message: 'Permissions removed.' }),
      onError: (err) =>
        notify({ type: 'error', message: failureSentence('Failed to delete user permissions.', err) }),
      onSettled: () => setDeleting(null),
    });
  };

  return (
    <Paper withBorder p="lg">
      <Group justify="space-between" mb="md">
        <Title order={3}>Admins & Permissions</Title>
        <Button leftSection={<IconUserPlus size={16} />} onClick={() => setEditing('new')}>
          Add Admin
        </Button>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        Discord's server owner and members with Administrator or Manage Server are always administrators here.
      </Text>
      {permissions.isPending ? (
        <Loader aria-label="Loading permissions" />
      ) : permissions.isError ? (
        <Alert color="red" variant="light" role="alert">
          Failed to load permissions.
        </Alert>
      ) : permissions.data.users.length === 0 ? (
        <Text c="dimmed">Nobody has been granted permissions yet.</Text>
      ) : (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>User</Table.Th>
              <Table.Th>Permissions</Table.Th>
              <Table.Th aria-label="Actions" />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {permissions.data.users.map((entry) => (
              <Table.Tr key={entry.userId}>
                <Table.Td>
                  <Group gap="sm" wrap="nowrap">
                    <Avatar src={entry.avatar} alt="" size="sm" radius="xl" />
                    <Stack gap={0}>
                      <Text size="sm">{name(entry)}</Text>
                      <Text size="xs" c="dimmed">
                        {entry.userId}
                      </Text>
                    </Stack>
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {entry.permissions.map((p) => (
                      <PermissionBadge key={p} permission={p} />
                    ))}
                    {entry.reason && (
                      <Badge variant="outline" color="gray" tt="none">
                        {entry.reason}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  {entry.implicit ? (
                    <Text size="xs" c="dimmed" ta="right">
                      Set on Discord
                    </Text>
                  ) : (
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <ActionIcon
                        variant="subtle"
                        aria-label={`Edit ${name(entry)}`}
                        onClick={() => setEditing(entry)}
                      >
                        <IconPencil size={16} />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Delete ${name(entry)}`}
                        onClick={() => setDeleting(entry)}
                      >
                        <IconX size={16} />
                      </ActionIcon>
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {editing && (
        <PermissionEditor
          guildId={guildId}
          entry={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title="Remove permissions"
        confirmColor="red"
        loading={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      >
        Remove every permission of {deleting && name(deleting)} in this server?
      </ConfirmDialog>
    </Paper>
  );
}
