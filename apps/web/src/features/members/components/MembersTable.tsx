import { Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { Fragment, useId, useState } from 'react';
import { TruncatedName } from '../../../components/TruncatedName';
import type { MemberSearchResult } from '../../../lib/guild-access/api/members';
import { MemberBadges } from './MemberBadges';
import { MemberIdentity } from './MemberIdentity';
import { MemberLinkDetails, MoreToggle } from './MemberLinkDetails';
import { lastLinkChange } from './memberLabels';

/**
 * Members at desktop width: one row each, link state as badges, fixed layout so long names truncate; each
 * row's More (the spec's toggle) opens a row below with the link's details.
 */
export function MembersTable({
  members,
  onOpen,
}: {
  members: MemberSearchResult[];
  onOpen: (id: string) => void;
}) {
  const [expanded, setExpanded] = useState<string | null>(null);
  const idPrefix = useId();
  return (
    <Table layout="fixed" verticalSpacing="xs" striped>
      <Table.Thead>
        <Table.Tr>
          <Table.Th w="32%">Member</Table.Th>
          <Table.Th w="24%">VRChat account</Table.Th>
          <Table.Th w="20%">Status</Table.Th>
          <Table.Th w="15%">Link changes</Table.Th>
          <Table.Th w="9%">
            <VisuallyHidden>Details</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {members.map((m) => {
          const open = expanded === m.id;
          const detailsId = `${idPrefix}-${m.id}`;
          return (
            <Fragment key={m.id}>
              <Table.Tr aria-label={m.username}>
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
                <Table.Td>
                  <MoreToggle
                    expanded={open}
                    controls={detailsId}
                    member={m.username}
                    onToggle={() => setExpanded(open ? null : m.id)}
                  />
                </Table.Td>
              </Table.Tr>
              {open && (
                <Table.Tr>
                  <Table.Td colSpan={5}>
                    <MemberLinkDetails member={m} id={detailsId} />
                  </Table.Td>
                </Table.Tr>
              )}
            </Fragment>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
