import {
  Alert,
  Button,
  Checkbox,
  Code,
  CopyButton,
  Group,
  Modal,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../../api/errors';
import { DialogActions } from '../../../components/DialogActions';
import type { GuildPermission } from '../../../lib/guild-access/api/guilds';
import { guildPermissions, permissionDescriptions } from '../../../lib/guild-access/permissions';
import { useCreateApiKey } from '../api/apiKeys';

/** Keys never hold Administrator: they cannot manage permissions or other keys. */
const keyPermissions = guildPermissions.filter((p) => p !== 'Admin');
const DAY = 86_400_000;
const dateInput = (d: Date) => d.toISOString().slice(0, 10);

export function CreateApiKeyDialog({ guildId, onClose }: { guildId: string; onClose: () => void }) {
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<GuildPermission[]>([]);
  const [validUntil, setValidUntil] = useState(dateInput(new Date(Date.now() + 30 * DAY)));
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateApiKey(guildId);

  const submit = () => {
    if (!name.trim()) return setProblem('Please enter a name for the API key.');
    if (permissions.length === 0) return setProblem('Select at least one permission.');
    setProblem(null);
    // The key is valid through the end of the chosen day (UTC).
    const until = new Date(`${validUntil}T23:59:59.000Z`).toISOString();
    create.mutate(
      { name: name.trim(), permissions, validUntil: until },
      { onError: (err) => setProblem(errorMessage(err, 'Failed to create API key.')) },
    );
  };

  if (create.data)
    return (
      <Modal opened onClose={onClose} title="API Key Created">
        <Stack>
          <Text size="sm">Copy the token now: it is shown only this once.</Text>
          {/* Focusable: on a phone the token scrolls sideways, and a keyboard must reach it (axe). */}
          <Code block aria-label="API key token" tabIndex={0}>
            {create.data.token}
          </Code>
          <Group justify="flex-end">
            <CopyButton value={create.data.token}>
              {({ copied, copy }) => <Button onClick={copy}>{copied ? 'Copied' : 'Copy'}</Button>}
            </CopyButton>
            <Button variant="default" onClick={onClose}>
              Done
            </Button>
          </Group>
        </Stack>
      </Modal>
    );
  return (
    <Modal opened onClose={onClose} title="Create API Key">
      <Stack>
        <TextInput
          label="Name"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          maxLength={100}
        />
        <Stack gap="xs" role="group" aria-label="Permissions">
          {keyPermissions.map((p) => (
            <Checkbox
              key={p}
              label={p}
              description={permissionDescriptions[p]}
              checked={permissions.includes(p)}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                setPermissions((now) => (on ? [...now, p] : now.filter((x) => x !== p)));
              }}
            />
          ))}
        </Stack>
        <TextInput
          type="date"
          label="Valid until"
          value={validUntil}
          min={dateInput(new Date(Date.now() + DAY))}
          onChange={(e) => setValidUntil(e.currentTarget.value)}
        />
        {problem && (
          <Alert color="red" variant="light" role="alert">
            {problem}
          </Alert>
        )}
        <DialogActions
          onCancel={onClose}
          onConfirm={submit}
          confirmLabel="Create"
          loading={create.isPending}
        />
      </Stack>
    </Modal>
  );
}
