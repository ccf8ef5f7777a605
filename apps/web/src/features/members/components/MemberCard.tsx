import { Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { TruncatedName } from '../../../components/TruncatedName';
import type { MemberSearchResult } from '../../../lib/guild-access/api/members';
import { MemberBadges } from './MemberBadges';
import { MemberIdentity } from './MemberIdentity';
import { lastLinkChange } from './memberLabels';

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0} miw={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <TruncatedName name={value} size="sm" />
    </Stack>
  );
}

/** A member on a phone: who they are, their link state as badges, and the link's details, all visible. */
export function MemberCard({ member, onOpen }: { member: MemberSearchResult; onOpen: () => void }) {
  return (
    <Card withBorder padding="sm" aria-label={member.username} component="li">
      <Stack gap="xs">
        <MemberIdentity member={member} onOpen={onOpen} />
        <Group gap={4}>
          <MemberBadges member={member} />
        </Group>
        {member.vrcId && (
          <SimpleGrid cols={2} spacing="xs">
            <Detail label="VRC Name" value={member.vrcName ?? 'N/A'} />
            <Detail label="VRC ID" value={member.vrcId} />
            <Detail label="Link Count" value={String(member.linkCount)} />
            <Detail label="Last Link Change" value={lastLinkChange(member.linkLastChanged)} />
          </SimpleGrid>
        )}
      </Stack>
    </Card>
  );
}
