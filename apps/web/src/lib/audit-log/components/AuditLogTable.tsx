import { Button, Code, Collapse, Table, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { TableHead } from '../../../components/TableHead';
import { TableScroll } from '../../../components/TableScroll';
import { TruncatedName } from '../../../components/TruncatedName';
import type { AuditLogEntry } from '../api/auditLog';

/**
 * The details JSON behind a 'Show data' expander, wrapped so it never widens the page. The button's name
 * says which entry ("Show data of World updated, 29/11/2026, 08:00:00"): a page of them all named
 * "Show data" tells a screen reader nothing.
 */
function DataCell({ data, entry }: { data: AuditLogEntry['data']; entry: string }) {
  const [open, { toggle }] = useDisclosure(false);
  if (!data) return null;
  return (
    <>
      <Button
        size="compact-xs"
        variant="subtle"
        onClick={toggle}
        aria-expanded={open}
        aria-label={`${open ? 'Hide data' : 'Show data'} of ${entry}`}
      >
        {open ? 'Hide data' : 'Show data'}
      </Button>
      <Collapse expanded={open}>
        <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {JSON.stringify(data, null, 2)}
        </Code>
      </Collapse>
    </>
  );
}

const targetKinds: Record<NonNullable<AuditLogEntry['target']>['kind'], string> = {
  member: 'Member',
  vrchatAccount: 'VRChat account',
  role: 'Role',
  world: 'World',
  group: 'Group',
  apiKey: 'API key',
  image: 'Image',
};

/** The target by name with its kind, the id below; the id alone when it names nothing known now. */
function TargetCell({ entry }: { entry: AuditLogEntry }) {
  if (!entry.target) return <TruncatedName name={entry.targetId ?? ''} size="sm" />;
  return (
    <>
      <TruncatedName name={entry.target.name} size="sm" />
      <Text size="xs" c="dimmed">
        {targetKinds[entry.target.kind]}
      </Text>
      <TruncatedName name={entry.targetId ?? ''} size="xs" c="dimmed" />
    </>
  );
}

const when = (e: AuditLogEntry) => new Date(e.createdAt).toLocaleString();

export function AuditLogTable({ entries }: { entries: AuditLogEntry[] }) {
  if (entries.length === 0) return <Text c="dimmed">No audit logs found.</Text>;
  return (
    <TableScroll label="Audit log table" minWidth={900}>
      <Table striped verticalSpacing="xs" layout="fixed">
        <TableHead columns={['Date', 'Actor', 'Event Type', 'Target', 'Description', 'Data']} />
        <Table.Tbody>
          {entries.map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td>{when(e)}</Table.Td>
              <Table.Td>
                <TruncatedName name={e.actorDisplayname ?? e.actorId ?? 'Unknown'} size="sm" />
                {e.actorId && <TruncatedName name={e.actorId} size="xs" c="dimmed" />}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{e.eventLabel}</Text>
              </Table.Td>
              <Table.Td>
                <TargetCell entry={e} />
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <Text size="sm">{e.description}</Text>
                {typeof e.data?.summary === 'string' && (
                  <Text size="xs" c="dimmed">
                    {e.data.summary}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <DataCell data={e.data} entry={`${e.eventLabel}, ${when(e)}`} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </TableScroll>
  );
}
