import { ActionIcon, Table } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { notify } from '../../../components/toasts';
import {
  type GroupToDiscordMapping,
  useCreateGroupToDiscord,
  useDeleteGroupToDiscord,
  useGroupToDiscordMappings,
  useUpdateGroupToDiscord,
} from '../api/groupToDiscordMappings';
import { DELETE_FAILED, deleteFailureMatters, updateFailed } from '../mappingMessages';
import { MappingDialog } from './MappingDialog';
import { MappingActionSelect, MappingRoleSelect } from './MappingSelect';

type Action = GroupToDiscordMapping['action'];
const actions: readonly Action[] = ['None', 'GrantRolePermanent', 'GrantRoleTemporary'];
const discordRoleActions: readonly Action[] = ['GrantRolePermanent', 'GrantRoleTemporary'];

/** 'Group to Discord Roles': what holders of a group role get in the server. Each change saves at once. */
export function GroupToDiscordDialog({ guildId, onClose }: { guildId: string; onClose: () => void }) {
  const list = useGroupToDiscordMappings(guildId);
  const create = useCreateGroupToDiscord(guildId);
  const update = useUpdateGroupToDiscord(guildId);
  const remove = useDeleteGroupToDiscord(guildId);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const save = (entry: GroupToDiscordMapping) => {
    // Only the grant actions give a Discord role (the server clears it too).
    const next = discordRoleActions.includes(entry.action) ? entry : { ...entry, discordRoleId: null };
    update.mutate(next, { onError: (err) => notify({ type: 'error', message: updateFailed(err) }) });
  };
  const drop = (id: string) =>
    remove.mutate(id, {
      onError: (err) => {
        if (deleteFailureMatters(err)) setDeleteError(DELETE_FAILED);
      },
    });

  const data = list.data;
  return (
    <MappingDialog
      title="Group to Discord Roles"
      columns={['Group Role', 'Action', 'Discord Role', 'Actions']}
      loading={list.isPending}
      loadError={list.isError}
      deleteError={deleteError}
      onDismissDeleteError={() => setDeleteError(null)}
      empty={data?.linkedGuildRoles.length === 0}
      adding={create.isPending}
      onAdd={() =>
        create.mutate(undefined, { onError: (err) => notify({ type: 'error', message: err.message }) })
      }
      onClose={onClose}
    >
      {data?.linkedGuildRoles.map((entry, i) => {
        const name = `Group to Discord mapping ${i + 1}`;
        return (
          <Table.Tr key={entry.id} aria-label={name}>
            <Table.Td>
              <MappingRoleSelect
                label={`Group Role of ${name}`}
                roles={data.groupRoles}
                loading={list.isFetching}
                value={entry.groupRoleId}
                onChange={(groupRoleId) => save({ ...entry, groupRoleId })}
              />
            </Table.Td>
            <Table.Td>
              <MappingActionSelect
                label={`Action of ${name}`}
                actions={actions}
                value={entry.action}
                onChange={(action) => save({ ...entry, action })}
              />
            </Table.Td>
            <Table.Td>
              {discordRoleActions.includes(entry.action) && (
                <MappingRoleSelect
                  label={`Discord Role of ${name}`}
                  roles={data.guildRoles}
                  loading={list.isFetching}
                  value={entry.discordRoleId}
                  onChange={(discordRoleId) => save({ ...entry, discordRoleId })}
                />
              )}
            </Table.Td>
            <Table.Td>
              <ActionIcon
                color="red"
                variant="subtle"
                aria-label={`Remove ${name}`}
                onClick={() => drop(entry.id)}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Table.Td>
          </Table.Tr>
        );
      })}
    </MappingDialog>
  );
}
