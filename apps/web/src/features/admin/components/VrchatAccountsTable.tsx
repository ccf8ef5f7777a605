import { Badge, Table, Text } from '@mantine/core';
import { TableScroll } from '../../../components/TableScroll';
import type { VrchatAccountStatus } from '../api/adminStatus';
import { vrchatLabel } from './platformLabels';

/** "none", or how long a VRChat request of this account waits for its shared budget. */
export const budgetWaitText = (seconds: number) => (seconds <= 0 ? 'none' : `${seconds} s`);

/** Every VRChat bot account: its groups of VRChat's cap, its login and its budget's wait. */
export function VrchatAccountsTable({ accounts }: { accounts: VrchatAccountStatus[] }) {
  if (accounts.length === 0) return <Text c="dimmed">No VRChat bot account is configured.</Text>;
  return (
    <TableScroll label="VRChat bot accounts table" minWidth={460}>
      <Table striped verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Account</Table.Th>
            <Table.Th>Groups</Table.Th>
            <Table.Th>Login</Table.Th>
            <Table.Th>Budget wait</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {accounts.map((a) => {
            const login = vrchatLabel(a.vrchat);
            return (
              <Table.Tr key={a.account}>
                <Table.Td style={{ wordBreak: 'break-all' }}>{a.account}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {a.groups} / {a.groupLimit}
                </Table.Td>
                <Table.Td>
                  <Badge color={login.color} variant="light">
                    {login.text}
                  </Badge>
                  {a.vrchat?.lastError && a.vrchat.status !== 'ok' && (
                    <Text size="xs" c="dimmed">
                      {a.vrchat.lastError}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{budgetWaitText(a.budgetWaitSeconds)}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </TableScroll>
  );
}
