import { Card, Group, Stack } from '@mantine/core';
import { useId, useState } from 'react';
import type { MemberSearchResult } from '../../../lib/guild-access/api/members';
import { MemberBadges } from './MemberBadges';
import { MemberIdentity } from './MemberIdentity';
import { MemberLinkDetails, MoreToggle } from './MemberLinkDetails';

/** A member on a phone: who they are and their link state as badges; More shows the link's details. */
export function MemberCard({ member, onOpen }: { member: MemberSearchResult; onOpen: () => void }) {
  const [expanded, setExpanded] = useState(false);
  const detailsId = useId();
  return (
    <Card withBorder padding="sm" aria-label={member.username} component="li">
      <Stack gap="xs">
        <MemberIdentity member={member} onOpen={onOpen} />
        <Group gap={4} justify="space-between" wrap="nowrap">
          <MemberBadges member={member} />
          <MoreToggle
            expanded={expanded}
            controls={detailsId}
            member={member.username}
            onToggle={() => setExpanded(!expanded)}
          />
        </Group>
        {expanded && <MemberLinkDetails member={member} id={detailsId} />}
      </Stack>
    </Card>
  );
}
