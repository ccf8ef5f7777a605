import {
  Avatar,
  Button,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { MemberSearchResult } from '../../../lib/guild-access/api/members';

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{value}</Text>
    </div>
  );
}

/** A member with their link state behind More/Less; clicking the name opens Member Details. */
export function MemberCard({ member, onOpen }: { member: MemberSearchResult; onOpen: () => void }) {
  const [more, { toggle }] = useDisclosure(false);
  return (
    <Card withBorder padding="sm" aria-label={member.username}>
      <Group justify="space-between" wrap="nowrap">
        {/* Named by its content, not an aria-label, so the name holds all the text it shows (WCAG 2.5.3). */}
        <UnstyledButton onClick={onOpen}>
          <VisuallyHidden>Details of</VisuallyHidden>
          <Group gap="sm" wrap="nowrap">
            <Avatar src={member.avatar} alt="" radius="xl" aria-hidden>
              {member.username.slice(0, 1)}
            </Avatar>
            <Stack gap={0}>
              <Text fw={600}>{member.username}</Text>
              <Text size="xs" c="dimmed">
                {member.id}
              </Text>
            </Stack>
          </Group>
        </UnstyledButton>
        <Button size="xs" variant="subtle" onClick={toggle} aria-expanded={more}>
          {more ? 'Less' : 'More'}
        </Button>
      </Group>
      {more && (
        <SimpleGrid cols={{ base: 2, sm: 3 }} mt="sm">
          <Detail label="VRC Name" value={member.vrcName ?? 'N/A'} />
          <Detail label="VRC ID" value={member.vrcId ?? 'N/A'} />
          <Detail label="Link Count" value={String(member.linkCount)} />
          <Detail
            label="Last Link Change"
            value={member.linkLastChanged ? new Date(member.linkLastChanged).toLocaleString() : 'Never'}
          />
          <Detail label="Verified" value={member.isVerified ? 'Yes' : 'No'} />
          <Detail label="Age Verified" value={member.ageVerified === 'Plus18' ? '18+' : 'No'} />
        </SimpleGrid>
      )}
    </Card>
  );
}
