import {
  ActionIcon,
  Alert,
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
import { useMediaQuery } from '@mantine/hooks';
import { IconPencil, IconUserPlus, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { NameAvatar } from '../../../components/NameAvatar';
import { TruncatedName } from '../../../components/TruncatedName';
import { notify } from '../../../components/toasts';
import { failureSentence } from '../../../lib/failure-sentence';
import { useDeletePermissions } from '../api/deletePermissions';
import { type PermissionEntry, usePermissions } from '../api/permissions';
import { PermissionBadge } from './PermissionBadge';
import { PermissionEditor } from './PermissionEditor';

interface EntriesProps {
  entries: PermissionEntry[];
  name: (e: PermissionEntry) => string;
  onEdit: (e: PermissionEntry) => void;
  onDelete: (e: PermissionEntry) => void;
}

function UserCell({ entry, name }: { entry: PermissionEntry; name: string }) {
  return (
    <Group gap="sm" wrap="nowrap" miw={0}>
      <NameAvatar src={entry.avatar} name={name} size="sm" />
      <Stack gap={0} miw={0}>
        <TruncatedName name={name} size="sm" />
        <Text size="xs" c="dimmed">
          {entry.userId}
        </Text>
      </Stack>
    </Group>
  );
}

function PermissionBadges({ entry }: { entry: PermissionEntry }) {
  return (
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
  );
}

function EntryActions({
  entry,
  name,
  onEdit,
  onDelete,
}: Omit<EntriesProps, 'entries'> & { entry: PermissionEntry }) {
  if (entry.implicit)
    return (
      <Text size="xs" c="dimmed" ta="right">
        Set on Discord
      </Text>
    );
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <ActionIcon variant="subtle" aria-label={`Edit ${name(entry)}`} onClick={() => onEdit(entry)}>
        <IconPencil size={16} />
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        color="red"
        aria-label={`Delete ${name(entry)}`}
        onClick={() => onDelete(entry)}
      >
        <IconX size={16} />
      </ActionIcon>
    </Group>
  );
}

/**
 * The entries: a table on a wide screen; on a phone one card each (who, then the permissions, then the
 * actions, stacked), since the table's three columns were 421 px wide at least and scrolled sideways (WCAG 1.4.10).
 */
function PermissionEntries(props: EntriesProps) {
  const isPhone = useMediaQuery('(max-width: 36em)');
  const { entries, name } = props;
  if (isPhone)
    return (
      <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Admins">
        {entries.map((entry) => (
          <Paper component="li" key={entry.userId} withBorder p="sm" aria-label={name(entry)}>
            <Stack gap="xs">
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <UserCell entry={entry} name={name(entry)} />
                <EntryActions entry={entry} {...props} />
              </Group>
              <PermissionBadges entry={entry} />
            </Stack>
          </Paper>
        ))}
      </Stack>
    );
  return (
    <Table layout="fixed">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>User</Table.Th>
          <Table.Th>Permissions</Table.Th>
          <Table.Th aria-label="Actions" w={120} />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entries.map((entry) => (
          <Table.Tr key={entry.userId}>
            <Table.Td>
              <UserCell entry={entry} name={name(entry)} />
            </Table.Td>
            <Table.Td>
              <PermissionBadges entry={entry} />
            </Table.Td>
            <Table.Td>
              <EntryActions entry={entry} {...props} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

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
        <Title order={2} size="h3">
          Admins & Permissions
        </Title>
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
        <PermissionEntries
          entries={permissions.data.users}
          name={name}
          onEdit={setEditing}
          onDelete={setDeleting}
        />
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
        title="Remove Permissions"
        confirmLabel="Remove Permissions"
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
