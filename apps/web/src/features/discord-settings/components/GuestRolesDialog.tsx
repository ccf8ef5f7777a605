import { ActionIcon, Alert, Button, Group, Loader, Modal, NativeSelect, Table, Text } from '@mantine/core';
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

/** 'Guest Users': holders of the main role may give `count` people the guest role. Each change saves at once. */
export function GuestRolesDialog({ guildId, roles, canEdit, onClose }: Props) {
  const entries = useGuestRoles(guildId);
  const create = useCreateGuestRole(guildId);
  const update = useUpdateGuestRole(guildId);
  const remove = useDeleteGuestRole(guildId);
  const [deleteError, setDeleteError] = useState<string | null>(null);

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

  return (
    <Modal opened onClose={onClose} title="Guest Users" size="xl">
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
            {entries.data.guestRoles.map((entry, i) => (
              <Table.Tr key={entry.id} aria-label={`Guest role ${i + 1}`}>
                <Table.Td>{i + 1}</Table.Td>
                <Table.Td>
                  <RoleSelect
                    label="Main Role"
                    emptyLabel="Select..."
                    roles={roles}
                    value={entry.primaryRoleId}
                    disabled={!canEdit}
                    onChange={(primaryRoleId) => save({ ...entry, primaryRoleId })}
                  />
                </Table.Td>
                <Table.Td>
                  <RoleSelect
                    label="Guest Role"
                    emptyLabel="Select..."
                    roles={roles}
                    value={entry.guestRoleId}
                    disabled={!canEdit}
                    onChange={(guestRoleId) => save({ ...entry, guestRoleId })}
                  />
                </Table.Td>
                <Table.Td>
                  <NativeSelect
                    label="Count"
                    data={counts}
                    value={String(entry.count)}
                    disabled={!canEdit}
                    onChange={(e) => save({ ...entry, count: Number(e.currentTarget.value) })}
                  />
                </Table.Td>
                <Table.Td>
                  <ActionIcon
                    color="red"
                    variant="subtle"
                    aria-label={`Remove guest role ${i + 1}`}
                    disabled={!canEdit}
                    onClick={() => drop(entry.id)}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
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
