import { Badge, Group } from '@mantine/core';
import type { MemberSearchResult } from '../../../lib/guild-access/api/members';
import { shownAsAdult } from './memberLabels';

/** Linked / Verified / 18+ at a glance: a badge for each state the member has, 'Not linked' otherwise. */
export function MemberBadges({ member }: { member: MemberSearchResult }) {
  if (!member.vrcId)
    return (
      <Badge variant="outline" color="gray">
        Not linked
      </Badge>
    );
  return (
    <Group gap={4} wrap="wrap">
      <Badge variant="light" color="blue">
        Linked
      </Badge>
      {member.isVerified ? (
        <Badge variant="light" color="green">
          Verified
        </Badge>
      ) : (
        <Badge variant="outline" color="orange">
          Unverified
        </Badge>
      )}
      {shownAsAdult(member) && (
        <Badge variant="light" color="grape">
          18+
        </Badge>
      )}
    </Group>
  );
}
