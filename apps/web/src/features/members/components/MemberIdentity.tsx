import { Avatar, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { TruncatedName } from '../../../components/TruncatedName';
import type { MemberSearchResult } from '../../../lib/guild-access/api/members';

/** Avatar, username and Discord ID; the name opens Member Details. */
export function MemberIdentity({ member, onOpen }: { member: MemberSearchResult; onOpen: () => void }) {
  return (
    <UnstyledButton onClick={onOpen} aria-label={`Details of ${member.username}`} maw="100%">
      <Group gap="sm" wrap="nowrap">
        <Avatar src={member.avatar} alt="" radius="xl">
          {member.username.slice(0, 1)}
        </Avatar>
        <Stack gap={0} miw={0}>
          <TruncatedName name={member.username} fw={600} c="blue.8" td="underline" />
          <Text size="xs" c="dimmed">
            {member.id}
          </Text>
        </Stack>
      </Group>
    </UnstyledButton>
  );
}
