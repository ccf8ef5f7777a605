import { ActionIcon, Table, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { notify } from '../../../components/toasts';
import {
  type DiscordToGroupMapping,
  useCreateDiscordToGroup,
  useDeleteDiscordToGroup,
  useDiscordToGroupMappings,
  useUpdateDiscordToGroup,
} from '../api/discordToGroupMappings';
import { DELETE_FAILED, deleteFailureMatters, updateFailed } from '../mappingMessages';
import { MappingDialog } from './MappingDialog';
import { MappingActionSelect, MappingRoleSelect } from './MappingSelect';
import { usePendingMapping } from './usePendingMapping';

type Action = DiscordToGroupMapping['action'];
const actions: readonly Action[] = [
  'None',
  'Membership',
  'NoMembership',
  'GrantRolePermanent',
  'GrantRoleTemporary',
  'RevokeRole',
];
/** @everyone is every linked member: they may join the group or not, nothing else. */
const everyoneActions: readonly Action[] = ['None', 'Membership'];
const groupRoleActions: readonly Action[] = ['GrantRolePermanent', 'GrantRoleTemporary', 'RevokeRole'];

/** 'Discord to Group Roles': what holders of a Discord role get in the group. Each change is previewed and saved on Save. */
export function DiscordToGroupDialog({ guildId, onClose }: { guildId: string; onClose: () => void }) {
  const list = useDiscordToGroupMappings(guildId);
  const create = useCreateDiscordToGroup(guildId);
  const update = useUpdateDiscordToGroup(guildId);
  const remove = useDeleteDiscordToGroup(guildId);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const loadingRoles = list.isFetching;

  const pending = usePendingMapping<DiscordToGroupMapping>({
    guildId,
    kind: 'discordToGroup',
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
  // Actions without a group role keep none (the server clears it too).
  const save = (entry: DiscordToGroupMapping, name: string) =>
    pending.propose(groupRoleActions.includes(entry.action) ? entry : { ...entry, groupRoleId: null }, name);

  const data = list.data;
  const row = (saved: DiscordToGroupMapping, i: number, everyone: boolean) => {
    const entry = pending.shown(saved);
    const name = everyone ? '@everyone' : `Discord to group mapping ${i}`;
    return (
      <Table.Tr key={entry.id} aria-label={name}>
        <Table.Td>
          {everyone ? (
            <Text fw={500}>@everyone</Text>
          ) : (
            <MappingRoleSelect
              label={`Discord Role of ${name}`}
              roles={data?.guildRoles ?? []}
              loading={loadingRoles}
              value={entry.discordRoleId}
              onChange={(discordRoleId) => save({ ...entry, discordRoleId }, name)}
            />
          )}
        </Table.Td>
        <Table.Td>
          <MappingActionSelect
            label={`Action of ${name}`}
            actions={everyone ? everyoneActions : actions}
            value={entry.action}
            onChange={(action) => save({ ...entry, action }, name)}
          />
        </Table.Td>
        <Table.Td>
          {groupRoleActions.includes(entry.action) && (
            <MappingRoleSelect
              label={`Group Role of ${name}`}
              roles={data?.groupRoles ?? []}
              loading={loadingRoles}
              value={entry.groupRoleId}
              onChange={(groupRoleId) => save({ ...entry, groupRoleId }, name)}
            />
          )}
        </Table.Td>
        <Table.Td>
          {!everyone && (
            <ActionIcon
              color="red"
              variant="subtle"
              aria-label={`Remove ${name}`}
              onClick={() => pending.proposeDelete(saved, name)}
            >
              <IconTrash size={16} />
            </ActionIcon>
          )}
        </Table.Td>
      </Table.Tr>
    );
  };

  return (
    <MappingDialog
      title="Discord to Group Roles"
      columns={['Discord Role', 'Action', 'Group Role', 'Actions']}
      loading={list.isPending}
      loadError={list.isError}
      deleteError={deleteError}
      onDismissDeleteError={() => setDeleteError(null)}
      empty={false}
      adding={create.isPending}
      onAdd={() =>
        create.mutate(undefined, { onError: (err) => notify({ type: 'error', message: err.message }) })
      }
      onClose={onClose}
      preview={pending.panel}
    >
      {data && [
        row(data.everyoneRole, 0, true),
        ...data.linkedGroupRoles.map((entry, i) => row(entry, i + 1, false)),
      ]}
    </MappingDialog>
  );
}
