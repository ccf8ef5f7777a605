import { Table, Text } from '@mantine/core';
import { TableScroll } from '../../../components/TableScroll';
import type { SyncActionView } from '../../../lib/sync/api/sync';
import { actionLabel, reasonLabel } from '../../../lib/sync/syncWords';

/** The actions of a sync, one per row; scrolls sideways on narrow screens. */
export function SyncActionTable({ actions, label }: { actions: SyncActionView[]; label: string }) {
  return (
    <TableScroll label={`${label} table`} minWidth={560}>
      <Table striped highlightOnHover verticalSpacing={4} fz="sm" aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Member</Table.Th>
            <Table.Th>Action</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th>Reason</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {actions.map((action, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a preview is replaced as a whole; rows have no id
            <Table.Tr key={i}>
              <Table.Td>{action.targetName}</Table.Td>
              <Table.Td>{actionLabel(action.kind)}</Table.Td>
              <Table.Td>
                {action.roleName ?? (
                  <Text span c="dimmed" size="sm" role="img" aria-label="No role">
                    —
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{reasonLabel(action.reason)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </TableScroll>
  );
}
