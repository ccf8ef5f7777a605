import { Stack, Table, Text } from '@mantine/core';
import { TruncatedName } from '../../../components/TruncatedName';
import type { MemberSearchResult } from '../../../lib/guild-access/api/members';
import { MemberBadges } from './MemberBadges';
import { MemberIdentity } from './MemberIdentity';
import { lastLinkChange } from './memberLabels';

/** Members at desktop width: one row each, link state as badges, fixed layout so long names truncate. */
export function MembersTable({
  members,
  onOpen,
}: {
  members: MemberSearchResult[];
  onOpen: (id: string) => void;
}) {
  return (
    <Table layout="fixed" verticalSpacing="xs" striped>
      <Table.Thead>
        <Table.Tr>
          <Table.Th w="34%">Member</Table.Th>
          <Table.Th w="26%">VRChat account</Table.Th>
          <Table.Th w="22%">Status</Table.Th>
          <Table.Th w="18%">Link changes</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {members.map((m) => (
          <Table.Tr key={m.id} aria-label={m.username}>
            <Table.Td>
              <MemberIdentity member={m} onOpen={() => onOpen(m.id)} />
            </Table.Td>
            <Table.Td>
              {m.vrcId ? (
                <Stack gap={0} miw={0}>
                  <TruncatedName name={m.vrcName ?? 'N/A'} size="sm" />
                  <TruncatedName name={m.vrcId} size="xs" c="dimmed" />
                </Stack>
              ) : (
                <Text size="sm" c="dimmed">
                  N/A
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <MemberBadges member={m} />
            </Table.Td>
            <Table.Td>
              <Text size="sm">{m.linkCount}</Text>
              <Text size="xs" c="dimmed">
                {lastLinkChange(m.linkLastChanged)}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
