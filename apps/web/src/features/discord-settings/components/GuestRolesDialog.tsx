import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Loader,
  Modal,
  NativeSelect,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../../api/errors';
import { DismissibleError } from '../../../components/DismissibleError';
import { notify } from '../../../components/toasts';
import { failureSentence } from '../../../lib/failure-sentence';
import { changePreviewQuery, type ProposedChange } from '../../../lib/sync/api/changePreview';
import { ChangePreviewPanel } from '../../../lib/sync/components/ChangePreviewPanel';
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

/** A change waiting for Save or Cancel: the entry after it (null: deleted) and what it is, in words. */
interface Pending {
  id: string;
  entry: GuestRoleEntry | null;
  change: ProposedChange;
  title: string;
}

/**
 * 'Guest Users': holders of the main role may give `count` people the guest role. A change that affects
 * nobody saves at once; one that would take guest roles from existing guests (a lower count, another role,
 * a deletion) shows what it would do first, and waits for Save or Cancel.
 * A table on wider screens; on phones one card per entry with the selects stacked at full width.
 */
export function GuestRolesDialog({ guildId, roles, canEdit, onClose }: Props) {
  const entries = useGuestRoles(guildId);
  const create = useCreateGuestRole(guildId);
  const update = useUpdateGuestRole(guildId);
  const remove = useDeleteGuestRole(guildId);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const isPhone = useMediaQuery('(max-width: 36em)');
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<Pending | null>(null);

  const commit = (p: Pending, done?: () => void) => {
    if (p.entry)
      update.mutate(p.entry, {
        onSuccess: () => notify({ type: 'success', message: 'Guest role updated successfully.' }),
        onError: (err) =>
          notify({ type: 'error', message: failureSentence('Failed to update guest role.', err) }),
        onSettled: done,
      });
    else
      remove.mutate(p.id, {
        onError: (err) => {
          // Already gone or never valid: the list refreshes and nothing needs saying.
          if (err instanceof ApiError && (err.status === 404 || err.status === 400)) return;
          setDeleteError('An error occurred while deleting the guest role.');
        },
        onSettled: done,
      });
  };
  /** Asks the server what the change would do to existing guests: nothing saves at once, else the panel. */
  const propose = async (p: Pending) => {
    try {
      const preview = await queryClient.fetchQuery(changePreviewQuery(guildId, p.change));
      if (preview.effects.length === 0) return commit(p);
    } catch {
      // The panel asks again and says why it could not tell; the admin decides.
    }
    setPending(p);
  };
  const roleName = (id: string | null) => (id ? (roles.find((r) => r.id === id)?.name ?? id) : 'none');
  const save = (before: GuestRoleEntry, entry: GuestRoleEntry, i: number) => {
    const parts = [
      before.primaryRoleId !== entry.primaryRoleId &&
        `Main Role: ${roleName(before.primaryRoleId)} → ${roleName(entry.primaryRoleId)}`,
      before.guestRoleId !== entry.guestRoleId &&
        `Guest Role: ${roleName(before.guestRoleId)} → ${roleName(entry.guestRoleId)}`,
      before.count !== entry.count && `Count: ${before.count} → ${entry.count}`,
    ].filter(Boolean);
    const { id, ...values } = entry;
    return propose({
      id,
      entry,
      change: { kind: 'guestRole', id, entry: values },
      title: `Guest role ${i + 1}: ${parts.join(', ')}`,
    });
  };
  const drop = (id: string, i: number) =>
    propose({
      id,
      entry: null,
      change: { kind: 'guestRole', id, entry: null },
      title: `Delete guest role ${i + 1}`,
    });

  const fields = (saved: GuestRoleEntry, i: number) => {
    // While a change waits for Save or Cancel, its row shows it.
    const entry = pending?.id === saved.id && pending.entry ? pending.entry : saved;
    const locked = !canEdit || pending !== null;
    return {
      main: (
        <RoleSelect
          label="Main Role"
          labelInHeader
          emptyLabel="Select..."
          roles={roles}
          value={entry.primaryRoleId}
          disabled={locked}
          onChange={(primaryRoleId) => save(saved, { ...saved, primaryRoleId }, i)}
        />
      ),
      guest: (
        <RoleSelect
          label="Guest Role"
          labelInHeader
          emptyLabel="Select..."
          roles={roles}
          given
          value={entry.guestRoleId}
          disabled={locked}
          onChange={(guestRoleId) => save(saved, { ...saved, guestRoleId }, i)}
        />
      ),
      count: (
        <NativeSelect
          aria-label="Count"
          data={counts}
          value={String(entry.count)}
          disabled={locked}
          onChange={(e) => save(saved, { ...saved, count: Number(e.currentTarget.value) }, i)}
        />
      ),
      remove: (
        <ActionIcon
          color="red"
          variant="subtle"
          aria-label={`Remove guest role ${i + 1}`}
          disabled={locked}
          onClick={() => drop(saved.id, i)}
        >
          <IconTrash size={16} />
        </ActionIcon>
      ),
    };
  };
  // One table at every width, its column names said once, in the header (each select is named by its column,
  // inside the row named 'Guest role N'); on a phone it drops the # column and tightens the spacing to fit 390 px.
  const entryList = (list: GuestRoleEntry[]) => (
    <Table layout="fixed" horizontalSpacing={isPhone ? 4 : 'sm'} aria-label="Guest roles">
      <Table.Thead>
        <Table.Tr>
          {!isPhone && <Table.Th w={40}>#</Table.Th>}
          <Table.Th>Main Role</Table.Th>
          <Table.Th>Guest Role</Table.Th>
          <Table.Th w={isPhone ? 68 : 96}>Count</Table.Th>
          <Table.Th w={isPhone ? 36 : 72}>
            {isPhone ? <VisuallyHidden>Actions</VisuallyHidden> : 'Actions'}
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {list.map((entry, i) => {
          const f = fields(entry, i);
          return (
            <Table.Tr key={entry.id} aria-label={`Guest role ${i + 1}`}>
              {!isPhone && <Table.Td>{i + 1}</Table.Td>}
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

  return (
    <Modal opened onClose={onClose} title="Guest Users" size="xl" fullScreen={isPhone}>
      <DismissibleError message={deleteError} onDismiss={() => setDeleteError(null)} />
      {entries.isPending ? (
        <Loader aria-label="Loading guest roles" />
      ) : entries.isError ? (
        <Alert color="red" variant="light" role="alert">
          Failed to load guest roles.
        </Alert>
      ) : (
        entryList(entries.data.guestRoles)
      )}
      {pending && (
        <ChangePreviewPanel
          guildId={guildId}
          change={pending.change}
          title={pending.title}
          saving={update.isPending || remove.isPending}
          onSave={() => commit(pending, () => setPending(null))}
          onCancel={() => setPending(null)}
        />
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
