import { Avatar, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { TruncatedName } from '../../../components/TruncatedName';
import type { MemberSearchResult } from '../../../lib/guild-access/api/members';

/**
 * Avatar, username and Discord ID; the name opens Member Details. Only the name is the button, so its
 * accessible name ("Details of <name>") holds all of its visible text (WCAG 2.5.3, label in name).
 */
export function MemberIdentity({ member, onOpen }: { member: MemberSearchResult; onOpen: () => void }) {
  return (
    <Group gap="sm" wrap="nowrap" miw={0}>
      <Avatar src={member.avatar} alt="" radius="xl" aria-hidden>
        {member.username.slice(0, 1)}
      </Avatar>
      <Stack gap={0} miw={0}>
        <UnstyledButton onClick={onOpen} aria-label={`Details of ${member.username}`} maw="100%">
          <TruncatedName name={member.username} fw={600} c="blue.3" td="underline" />
        </UnstyledButton>
        <Text size="xs" c="dimmed">
          {member.id}
        </Text>
      </Stack>
    </Group>
  );
}
