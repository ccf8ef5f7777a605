import { Text } from '@mantine/core';
import type { ManageableGuild } from '../../server-settings/api/guilds';

export function DiscordTab(_props: { guild: ManageableGuild }) {
  return <Text c="dimmed">Discord settings are not available yet.</Text>;
}
