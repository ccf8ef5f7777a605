import { Alert, Anchor, Badge, Button, Code, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { TableHead } from '../../../components/TableHead';
import { TableScroll } from '../../../components/TableScroll';
import { type ApiLogEntry, useApiLog } from '../api/apiLog';

const statusColor = (status: number) =>
  status >= 500 ? 'red' : status === 429 ? 'orange' : status >= 400 ? 'yellow' : 'green';

/** Who called: the key's name (or that it was deleted since), else the signed-in user. */
function Caller({ entry }: { entry: ApiLogEntry }) {
  if (entry.apiKeyId)
    return entry.apiKeyName ? (
      <Text size="sm">{entry.apiKeyName}</Text>
    ) : (
      <Text size="sm" c="dimmed">
        Deleted key
      </Text>
    );
  return <Text size="sm">{entry.username ?? entry.userId ?? 'Unknown'}</Text>;
}

/** 'API log': the server's /api/v1 calls of the last 30 days (Admins only, like the keys themselves). */
export function ApiLogPanel({ guildId }: { guildId: string }) {
  const log = useApiLog(guildId);
  const entries = log.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <Stack gap="sm" mt="xl">
      <Group justify="space-between">
        <div>
          <Title order={4}>API log</Title>
          <Text size="sm" c="dimmed">
            Calls to the API of this server in the last 30 days, newest first. How to call it:{' '}
            <Anchor href="/api/docs" target="_blank" rel="noreferrer">
              API documentation
            </Anchor>
            .
          </Text>
        </div>
        <Button
          variant="subtle"
          leftSection={<IconRefresh size={16} />}
          onClick={() => log.refetch()}
          loading={log.isRefetching && !log.isFetchingNextPage}
        >
          Refresh
        </Button>
      </Group>
      {log.isPending ? (
        <Loader aria-label="Loading API log" />
      ) : log.isError && entries.length === 0 ? (
        <Alert color="red" variant="light" role="alert">
          Failed to load the API log.
        </Alert>
      ) : entries.length === 0 ? (
        <Text c="dimmed">No API calls in the last 30 days.</Text>
      ) : (
        <TableScroll label="API log table" minWidth={700}>
          <Table striped verticalSpacing="xs" aria-label="API log">
            <TableHead columns={['Time', 'Key', 'Request', 'Status', 'Duration']} />
            <Table.Tbody>
              {entries.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td>{new Date(e.time).toLocaleString()}</Table.Td>
                  <Table.Td>
                    <Caller entry={e} />
                  </Table.Td>
                  <Table.Td>
                    <Code style={{ wordBreak: 'break-all' }}>
                      {e.method} {e.path}
                    </Code>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={statusColor(e.status)} variant="light">
                      {e.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{e.durationMs} ms</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScroll>
      )}
      {log.hasNextPage && (
        <Button variant="light" onClick={() => log.fetchNextPage()} loading={log.isFetchingNextPage}>
          Load older calls
        </Button>
      )}
    </Stack>
  );
}
