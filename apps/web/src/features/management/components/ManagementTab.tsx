import { Text } from '@mantine/core';
import type { ManageableGuild } from '../../server-settings/api/guilds';

export function ManagementTab(_props: { guild: ManageableGuild }) {
  return <Text c="dimmed">Management is not available yet.</Text>;
}
