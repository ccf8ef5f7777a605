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
import { usePendingMapping } from './usePendingMapping';

type Action = GroupToDiscordMapping['action'];
const actions: readonly Action[] = ['None', 'GrantRolePermanent', 'GrantRoleTemporary'];
const discordRoleActions: readonly Action[] = ['GrantRolePermanent', 'GrantRoleTemporary'];

/** 'Group to Discord Roles': what holders of a group role get in the server. Each change is previewed and saved on Save. */
export function GroupToDiscordDialog({ guildId, onClose }: { guildId: string; onClose: () => void }) {
  const list = useGroupToDiscordMappings(guildId);
  const create = useCreateGroupToDiscord(guildId);
  const update = useUpdateGroupToDiscord(guildId);
  const remove = useDeleteGroupToDiscord(guildId);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const pending = usePendingMapping<GroupToDiscordMapping>({
    guildId,
    kind: 'groupToDiscord',
    saving: update.isPending || remove.isPending,
    save: (entry, done) =>
      update.mutate(entry, {
        onError: (err) => notify({ type: 'error', message: updateFailed(err) }),
        onSettled: done,
      }),
    remove: (id, done) =>
      remove.mutate(id, {
        onError: (err) => {
          if (deleteFailureMatters(err)) setDeleteError(DELETE_FAILED);
        },
        onSettled: done,
      }),
  });
  // Only the grant actions give a Discord role (the server clears it too).
  const save = (entry: GroupToDiscordMapping, name: string) =>
    pending.propose(
      discordRoleActions.includes(entry.action) ? entry : { ...entry, discordRoleId: null },
      name,
    );

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
      preview={pending.panel}
    >
      {data?.linkedGuildRoles.map((saved, i) => {
        const entry = pending.shown(saved);
        const name = `Group to Discord mapping ${i + 1}`;
        return (
          <Table.Tr key={entry.id} aria-label={name}>
            <Table.Td>
              <MappingRoleSelect
                label={`Group Role of ${name}`}
                roles={data.groupRoles}
                loading={list.isFetching}
                value={entry.groupRoleId}
                onChange={(groupRoleId) => save({ ...entry, groupRoleId }, name)}
              />
            </Table.Td>
            <Table.Td>
              <MappingActionSelect
                label={`Action of ${name}`}
                actions={actions}
                value={entry.action}
                onChange={(action) => save({ ...entry, action }, name)}
              />
            </Table.Td>
            <Table.Td>
              {discordRoleActions.includes(entry.action) && (
                <MappingRoleSelect
                  label={`Discord Role of ${name}`}
                  roles={data.guildRoles}
                  loading={list.isFetching}
                  value={entry.discordRoleId}
                  onChange={(discordRoleId) => save({ ...entry, discordRoleId }, name)}
                />
              )}
            </Table.Td>
            <Table.Td>
              <ActionIcon
                color="red"
                variant="subtle"
                aria-label={`Remove ${name}`}
                onClick={() => pending.proposeDelete(saved, name)}
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
