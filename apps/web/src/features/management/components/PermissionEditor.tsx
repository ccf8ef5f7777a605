import { Alert, Checkbox, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { DialogActions } from '../../../components/DialogActions';
import { notify } from '../../../components/toasts';
import { failureSentence } from '../../../lib/failure-sentence';
import type { GuildPermission } from '../../../lib/guild-access/api/guilds';
import {
  guildPermissions,
  permissionDescriptions,
  permissionLabel,
} from '../../../lib/guild-access/permissions';
import type { PermissionEntry } from '../api/permissions';
import { useSavePermissions } from '../api/savePermissions';
import { MemberPicker } from './MemberPicker';

export const LAST_PERMISSION = 'Use the delete (X) to remove the last permission entry.';

interface Props {
  guildId: string;
  /** The entry being edited, or null to add an admin. */
  entry: PermissionEntry | null;
  onClose: () => void;
}

export function PermissionEditor({ guildId, entry, onClose }: Props) {
  const [userId, setUserId] = useState<string | null>(entry?.userId ?? null);
  const [selected, setSelected] = useState<GuildPermission[]>(entry?.permissions ?? []);
  const [warning, setWarning] = useState<string | null>(null);
  const save = useSavePermissions(guildId);

  const toggle = (permission: GuildPermission, on: boolean) => {
    if (!on && entry && selected.length === 1 && selected[0] === permission)
      return setWarning(LAST_PERMISSION);
    setWarning(null);
    setSelected((now) => (on ? [...now, permission] : now.filter((p) => p !== permission)));
  };
  const submit = () => {
    if (!userId || selected.length === 0) return;
    save.mutate(
      { userId, permissions: guildPermissions.filter((p) => selected.includes(p)) },
      {
        onSuccess: () => {
          notify({ type: 'success', message: 'Permissions updated.' });
          onClose();
        },
        onError: (err) =>
          notify({ type: 'error', message: failureSentence('Failed to update permissions.', err) }),
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={entry ? `Edit ${entry.username ?? entry.userId}` : 'Add Admin'}>
      <Stack>
        {entry ? (
          <Text size="sm" c="dimmed">
            Discord ID {entry.userId}
          </Text>
        ) : (
          <MemberPicker guildId={guildId} value={userId} onChange={setUserId} />
        )}
        <Stack gap="xs" role="group" aria-label="Permissions">
          {guildPermissions.map((p) => (
            <Checkbox
              key={p}
              label={permissionLabel(p)}
              description={permissionDescriptions[p]}
              checked={selected.includes(p)}
              onChange={(e) => toggle(p, e.currentTarget.checked)}
            />
          ))}
        </Stack>
        {warning && (
          <Alert color="yellow" variant="light" role="alert">
            {warning}
          </Alert>
        )}
        <DialogActions
          onCancel={onClose}
          onConfirm={submit}
          confirmLabel="Save"
          loading={save.isPending}
          disabled={!userId || selected.length === 0}
        />
      </Stack>
    </Modal>
  );
}
