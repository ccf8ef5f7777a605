import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Loader,
  Modal,
  NativeSelect,
  Paper,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ApiError } from '../../../api/errors';
import { notify } from '../../../components/toasts';
import {
  type GuestRoleEntry,
  useCreateGuestRole,
  useDeleteGuestRole,
  useGuestRoles,
  useUpdateGuestRole,
} from '../api/guestRoles';
import { type RoleOption, RoleSelect } from './RoleSelect';

const counts = Array.from({ length: 26 }, (_, n) => String(n));

interface Props {
  guildId: string;
  roles: RoleOption[];
  canEdit: boolean;
  onClose: () => void;
}

/**
 * 'Guest Users': holders of the main role may give `count` people the guest role. Each change saves at once.
 * A table on wider screens; on phones one card per entry with the selects stacked at full width.
 */
export function GuestRolesDialog({ guildId, roles, canEdit, onClose }: Props) {
  const entries = useGuestRoles(guildId);
  const create = useCreateGuestRole(guildId);
  const update = useUpdateGuestRole(guildId);
  const remove = useDeleteGuestRole(guildId);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const isPhone = useMediaQuery('(max-width: 36em)');

  const save = (entry: GuestRoleEntry) =>
    update.mutate(entry, {
      onSuccess: () => notify({ type: 'success', message: 'Guest role updated successfully.' }),
      onError: () => notify({ type: 'error', message: 'Failed to update guest role.' }),
    });
  const drop = (id: string) =>
    remove.mutate(id, {
      onError: (err) => {
        // Already gone or never valid: the list refreshes and nothing needs saying.
        if (err instanceof ApiError && (err.status === 404 || err.status === 400)) return;
        setDeleteError('An error occurred while deleting the guest role.');
      },
    });

  const fields = (entry: GuestRoleEntry, i: number) => ({
    main: (
      <RoleSelect
        label="Main Role"
        emptyLabel="Select..."
        roles={roles}
        value={entry.primaryRoleId}
        disabled={!canEdit}
        onChange={(primaryRoleId) => save({ ...entry, primaryRoleId })}
      />
    ),
    guest: (
      <RoleSelect
        label="Guest Role"
        emptyLabel="Select..."
        roles={roles}
        value={entry.guestRoleId}
        disabled={!canEdit}
        onChange={(guestRoleId) => save({ ...entry, guestRoleId })}
      />
    ),
    count: (
      <NativeSelect
        label="Count"
        data={counts}
        value={String(entry.count)}
        disabled={!canEdit}
        onChange={(e) => save({ ...entry, count: Number(e.currentTarget.value) })}
      />
    ),
    remove: (
      <ActionIcon
        color="red"
        variant="subtle"
        aria-label={`Remove guest role ${i + 1}`}
        disabled={!canEdit}
        onClick={() => drop(entry.id)}
      >
        <IconTrash size={16} />
      </ActionIcon>
    ),
  });
  const entryList = (list: GuestRoleEntry[]) => {
    if (isPhone) {
      return (
        <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
          {list.map((entry, i) => {
            const f = fields(entry, i);
            return (
              <Paper
                component="li"
                key={entry.id}
                withBorder
                p="sm"
                radius="md"
                aria-label={`Guest role ${i + 1}`}
              >
                <Stack gap="xs">
                  <Group justify="space-between">
                    <Text fw={600}>#{i + 1}</Text>
                    {f.remove}
                  </Group>
                  {f.main}
                  {f.guest}
                  {f.count}
                </Stack>
              </Paper>
            );
          })}
        </Stack>
      );
    }
    return (
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>#</Table.Th>
            <Table.Th>Main Role</Table.Th>
            <Table.Th>Guest Role</Table.Th>
            <Table.Th>Count</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {list.map((entry, i) => {
            const f = fields(entry, i);
            return (
              <Table.Tr key={entry.id} aria-label={`Guest role ${i + 1}`}>
                <Table.Td>{i + 1}</Table.Td>
                <Table.Td>{f.main}</Table.Td>
                <Table.Td>{f.guest}</Table.Td>
                <Table.Td>{f.count}</Table.Td>
                <Table.Td>{f.remove}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    );
  };

  return (
    <Modal opened onClose={onClose} title="Guest Users" size="xl" fullScreen={isPhone}>
      {deleteError && (
        <Alert
          color="red"
          variant="light"
          role="alert"
          mb="sm"
          withCloseButton
          onClose={() => setDeleteError(null)}
        >
          {deleteError}
        </Alert>
      )}
      {entries.isPending ? (
        <Loader aria-label="Loading guest roles" />
      ) : entries.isError ? (
        <Alert color="red" variant="light" role="alert">
          Failed to load guest roles.
        </Alert>
      ) : (
        entryList(entries.data.guestRoles)
      )}
      {entries.data?.guestRoles.length === 0 && (
        <Text c="dimmed" my="sm">
          No guest roles yet.
        </Text>
      )}
      <Group justify="flex-end" mt="md">
        <Button
          disabled={!canEdit}
          loading={create.isPending}
          onClick={() =>
            create.mutate(undefined, { onError: (err) => notify({ type: 'error', message: err.message }) })
          }
        >
          Add
        </Button>
      </Group>
    </Modal>
  );
}
