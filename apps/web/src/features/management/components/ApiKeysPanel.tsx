import { ActionIcon, Alert, Button, Group, Loader, Paper, Table, Text, Title } from '@mantine/core';
import { IconKey, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { TableScroll } from '../../../components/TableScroll';
import { TruncatedName } from '../../../components/TruncatedName';
import { notify } from '../../../components/toasts';
import { ApiLogPanel } from '../../../lib/api-log';
import { failureSentence } from '../../../lib/failure-sentence';
import { type ApiKey, useApiKeys, useDeleteApiKey } from '../api/apiKeys';
import { CreateApiKeyDialog } from './CreateApiKeyDialog';
import { PermissionBadge } from './PermissionBadge';

const day = (iso: string) => new Date(iso).toLocaleDateString();

/** 'Access & API Keys': keys that act in this server with their own permissions. */
export function ApiKeysPanel({ guildId }: { guildId: string }) {
  const keys = useApiKeys(guildId);
  const remove = useDeleteApiKey(guildId);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<ApiKey | null>(null);
  const confirmDelete = () =>
    deleting &&
    remove.mutate(deleting.id, {
      onSuccess: () => notify({ type: 'success', message: 'API key deleted.' }),
      onError: (err) => notify({ type: 'error', message: failureSentence('Failed to delete API key.', err) }),
      onSettled: () => setDeleting(null),
    });

  return (
    <Paper withBorder p="lg">
      <Group justify="space-between" mb="md">
        <Title order={2} size="h3">
          Access & API Keys
        </Title>
        <Button leftSection={<IconKey size={16} />} onClick={() => setCreating(true)}>
          Create API Key
        </Button>
      </Group>
      {keys.isPending ? (
        <Loader aria-label="Loading API keys" />
      ) : keys.isError ? (
        <Alert color="red" variant="light" role="alert">
          Failed to load API keys.
        </Alert>
      ) : keys.data.apiKeys.length === 0 ? (
        <Text c="dimmed">No API keys yet.</Text>
      ) : (
        // Fixed columns, cut names, and a table that scrolls within itself on a phone: a 100-character key
        // name (the form's limit) never widens the page.
        <TableScroll label="API keys table" minWidth={640}>
          <Table layout="fixed">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w="28%">Name</Table.Th>
                <Table.Th>Permissions</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Valid until</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th w={48} aria-label="Actions" />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keys.data.apiKeys.map((key) => (
                <Table.Tr key={key.id}>
                  <Table.Td>
                    <TruncatedName name={key.name} size="sm" />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {key.permissions.map((p) => (
                        <PermissionBadge key={p} permission={p} />
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td>{day(key.createdOn)}</Table.Td>
                  <Table.Td>{day(key.validUntil)}</Table.Td>
                  <Table.Td>{key.lastUsedAt ? day(key.lastUsedAt) : 'Never'}</Table.Td>
                  <Table.Td>
                    <ActionIcon
                      color="red"
                      variant="subtle"
                      aria-label={`Delete ${key.name}`}
                      onClick={() => setDeleting(key)}
                    >
                      <IconX size={16} />
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScroll>
      )}
      <ApiLogPanel guildId={guildId} />
      {creating && <CreateApiKeyDialog guildId={guildId} onClose={() => setCreating(false)} />}
      <ConfirmDialog
        opened={deleting !== null}
        title="Delete API Key"
        confirmLabel="Delete API Key"
        confirmColor="red"
        loading={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      >
        <Text component="span" style={{ overflowWrap: 'anywhere' }}>
          Delete {deleting?.name}? Anything using it stops working at once.
        </Text>
      </ConfirmDialog>
    </Paper>
  );
}
