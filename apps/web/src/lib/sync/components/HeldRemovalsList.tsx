import { Button, Group, List, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../../api/errors';
import { HELD_PAGE_SIZE, type SyncActionView, useHeldRemovals } from '../api/sync';

/** "Glimmer" for a member removed from the group, "Glimmer (Event Host)" for a role taken. */
export const heldName = (a: SyncActionView) =>
  a.roleName ? `${a.targetName} (${a.roleName})` : a.targetName;

/** Where a held removal acts, after the name: the group, a group role, a Discord role. */
const where: Record<string, string> = {
  remove: 'removed from the VRChat group',
  removeGroupRole: 'group role taken',
  removeDiscordRole: 'Discord role taken',
};

/** Every held removal, a page at a time, so all of them can be read before Apply. */
export function HeldRemovalsList({ guildId }: { guildId: string }) {
  const [page, setPage] = useState(1);
  const held = useHeldRemovals(guildId, page);
  if (held.isPending) return <Text size="sm">Loading..</Text>;
  if (held.isError)
    return (
      <Text size="sm" c="red" role="alert">
        {`Failed to load the held removals. ${errorMessage(held.error, '')}`.trim()}
      </Text>
    );
  const pages = Math.max(1, Math.ceil(held.data.total / HELD_PAGE_SIZE));
  return (
    <Stack gap="xs">
      <List size="sm" aria-label="Held removals">
        {held.data.actions.map((a, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: two members may share a name
          <List.Item key={i}>{`${heldName(a)}: ${where[a.kind] ?? a.kind}`}</List.Item>
        ))}
      </List>
      <Group gap="xs">
        <Button size="xs" variant="default" disabled={page <= 1} onClick={() => setPage(page - 1)}>
          Previous
        </Button>
        <Text size="sm">{`Page ${page} of ${pages}`}</Text>
        <Button size="xs" variant="default" disabled={page >= pages} onClick={() => setPage(page + 1)}>
          Next
        </Button>
      </Group>
    </Stack>
  );
}
