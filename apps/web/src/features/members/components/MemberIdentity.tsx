import { Button, Group, Stack, Text } from '@mantine/core';
import { IconId } from '@tabler/icons-react';
import { NameAvatar } from '../../../components/NameAvatar';
import { TruncatedName } from '../../../components/TruncatedName';
import type { MemberSearchResult } from '../../../lib/guild-access/api/members';

/**
 * Avatar, username and Discord ID, and a Details button that opens Member Details: a button that looks like
 * one (the name underlined in blue read as a link, yet opened a dialog). Named "Details of <name>", its
 * visible text first (WCAG 2.5.3), so 25 rows are not 25 "Details".
 */
export function MemberIdentity({ member, onOpen }: { member: MemberSearchResult; onOpen: () => void }) {
  return (
    <Group gap="sm" wrap="nowrap" miw={0}>
      <NameAvatar src={member.avatar} name={member.username} />
      <Stack gap={0} miw={0} style={{ flex: 1 }}>
        <TruncatedName name={member.username} fw={600} />
        <Text size="xs" c="dimmed">
          {member.id}
        </Text>
      </Stack>
      <Button
        size="compact-sm"
        variant="default"
        leftSection={<IconId size={14} aria-hidden />}
        aria-haspopup="dialog"
        aria-label={`Details of ${member.username}`}
        onClick={onOpen}
        style={{ flexShrink: 0 }}
      >
        Details
      </Button>
    </Group>
  );
}
