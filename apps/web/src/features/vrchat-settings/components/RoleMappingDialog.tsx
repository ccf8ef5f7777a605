import { ActionIcon, Table, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { notify } from '../../../components/toasts';
import { useCreateMapping, useDeleteMapping, useRoleMappings, useUpdateMapping } from '../api/roleMappings';
import type { MappingDirection, MappingEntry } from '../mappingDirections';
import { DELETE_FAILED, deleteFailureMatters, updateFailed } from '../mappingMessages';
import { MappingDialog } from './MappingDialog';
import { MappingActionSelect, type MappingRoleOption, MappingRoleSelect } from './MappingSelect';
import { usePendingMapping } from './usePendingMapping';

interface Props<L, E extends MappingEntry> {
  direction: MappingDirection<L, E>;
  guildId: string;
  onClose: () => void;
}

/**
 * Either direction's role mappings: a source role, an action and (for the actions that name one) a target role
 * per row. Each change is previewed and saved on Save.
 */
export function RoleMappingDialog<L, E extends MappingEntry>({ direction, guildId, onClose }: Props<L, E>) {
  const list = useRoleMappings(direction, guildId);
  const create = useCreateMapping(direction, guildId);
  const update = useUpdateMapping(direction, guildId);
  const remove = useDeleteMapping(direction, guildId);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const { source, target, fixed } = direction;

  const pending = usePendingMapping<E>({
    guildId,
    kind: direction.kind,
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
  // Actions without a target role keep none (the server clears it too).
  const save = (entry: E, name: string) =>
    pending.propose(
      direction.targetActions.includes(entry.action) ? entry : { ...entry, [target.column]: null },
      name,
    );

  const data = list.data;
  // A Discord role the bot gives (group to Discord) comes marked when the bot cannot give it.
  const rolesOf = (side: typeof source) => (data?.[side.roles] as MappingRoleOption[] | undefined) ?? [];
  const row = (saved: E, name: string, isFixed: boolean) => {
    const entry = pending.shown(saved);
    const roleSelect = (side: typeof source) => (
      <MappingRoleSelect
        label={`${side.label} of ${name}`}
        roles={rolesOf(side)}
        loading={list.isFetching}
        value={entry[side.column]}
        onChange={(roleId) => save({ ...entry, [side.column]: roleId }, name)}
      />
    );
    return (
      <Table.Tr key={entry.id} aria-label={name}>
        <Table.Td>{isFixed ? <Text fw={500}>{name}</Text> : roleSelect(source)}</Table.Td>
        <Table.Td>
          <MappingActionSelect
            label={`Action of ${name}`}
            actions={isFixed && fixed ? fixed.actions : direction.actions}
            value={entry.action}
            onChange={(action) => save({ ...entry, action }, name)}
          />
        </Table.Td>
        <Table.Td>{direction.targetActions.includes(entry.action) && roleSelect(target)}</Table.Td>
        <Table.Td>
          {!isFixed && (
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

  const entries = data ? direction.entries(data) : [];
  return (
    <MappingDialog
      title={direction.title}
      columns={[source.label, 'Action', target.label, 'Actions']}
      loading={list.isPending}
      loadError={list.isError}
      deleteError={deleteError}
      onDismissDeleteError={() => setDeleteError(null)}
      empty={!fixed && data !== undefined && entries.length === 0}
      adding={create.isPending}
      onAdd={() =>
        create.mutate(undefined, { onError: (err) => notify({ type: 'error', message: err.message }) })
      }
      onClose={onClose}
      preview={pending.panel}
    >
      {data && [
        ...(fixed ? [row(fixed.entry(data), fixed.name, true)] : []),
        ...entries.map((entry, i) => row(entry, `${direction.rowName} ${i + 1}`, false)),
      ]}
    </MappingDialog>
  );
}
