import { Code, Table, Text, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import type { AuditLogEntry } from '../api/auditLog';

/** The details JSON: one compact line, the whole document on click. */
function DataCell({ data }: { data: AuditLogEntry['data'] }) {
  const [open, setOpen] = useState(false);
  if (!data) return null;
  if (open) return <Code block>{JSON.stringify(data, null, 2)}</Code>;
  const compact = JSON.stringify(data);
  return (
    <UnstyledButton onClick={() => setOpen(true)} title="Show all" maw={320}>
      <Code style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', display: 'block' }}>
        {compact}
      </Code>
    </UnstyledButton>
  );
}

export function AuditLogTable({ entries }: { entries: AuditLogEntry[] }) {
  if (entries.length === 0) return <Text c="dimmed">No audit logs found.</Text>;
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table striped verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            {['Date', 'Actor', 'Event Type', 'Target', 'Description', 'Data'].map((h) => (
              <Table.Th key={h}>{h}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td>{new Date(e.createdAt).toLocaleString()}</Table.Td>
              <Table.Td>
                <Text size="sm">{e.actorDisplayname ?? e.actorId ?? 'Unknown'}</Text>
                {e.actorId && (
                  <Text size="xs" c="dimmed">
                    {e.actorId}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{e.eventType}</Table.Td>
              <Table.Td>{e.targetId}</Table.Td>
              <Table.Td>
                <Text size="sm">{e.description}</Text>
                {typeof e.data?.summary === 'string' && (
                  <Text size="xs" c="dimmed">
                    {e.data.summary}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <DataCell data={e.data} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
