import { Text } from '@mantine/core';
import type { ManageableGuild } from '../../server-settings/api/guilds';

export function WorldsTab(_props: { guild: ManageableGuild; rest: string[] }) {
  return <Text c="dimmed">Worlds are not available yet.</Text>;
}
