import { Button, SimpleGrid, Stack, Text } from '@mantine/core';
import { TruncatedName } from '../../../components/TruncatedName';
import type { MemberSearchResult } from '../../../lib/guild-access/api/members';
import { ageLabel, lastLinkChange } from './memberLabels';

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

/**
 * The spec's More/Less toggle of a member; `controls` is the id of the details it shows. Its name says whose
 * details ("More about glitchwolf"): a list of 25 buttons all named "More" tells a screen reader nothing.
 */
export function MoreToggle({
  expanded,
  controls,
  onToggle,
  member,
}: {
  expanded: boolean;
  controls: string;
  onToggle: () => void;
  /** Whose details: the member's username. */
  member: string;
}) {
  return (
    <Button
      size="compact-xs"
      variant="subtle"
      aria-label={`${expanded ? 'Less' : 'More'} about ${member}`}
      aria-expanded={expanded}
      aria-controls={controls}
      onClick={onToggle}
    >
      {expanded ? 'Less' : 'More'}
    </Button>
  );
}

/** What More reveals: the spec's link fields, each in words ('18+' only for a verified Plus18 link). */
export function MemberLinkDetails({ member, id }: { member: MemberSearchResult; id: string }) {
  return (
    <SimpleGrid
      id={id}
      role="region"
      aria-label={`Link details of ${member.username}`}
      cols={{ base: 2, sm: 3 }}
      spacing="xs"
    >
      <Detail label="VRC Name" value={member.vrcName ?? 'N/A'} />
      <Detail label="VRC ID" value={member.vrcId ?? 'N/A'} />
      <Detail label="Link Count" value={String(member.linkCount)} />
      <Detail label="Last Link Change" value={lastLinkChange(member.linkLastChanged)} />
      <Detail label="Verified" value={member.isVerified ? 'Yes' : 'No'} />
      <Detail label="Age Verified" value={ageLabel(member)} />
    </SimpleGrid>
  );
}
