import { Paper, Text, Title } from '@mantine/core';
import { DiscordTab } from '../../discord-settings';
import { ManagementTab } from '../../management';
import { MembersTab } from '../../members';
import { VrchatTab } from '../../vrchat-settings';
import { WorldsTab } from '../../worlds';
import type { ManageableGuild } from '../api/guilds';
import type { ServerTab } from '../tabs';

interface Props {
  guild: ManageableGuild;
  tab: ServerTab;
  /** Path segments after the tab, e.g. `images/{worldId}` under worlds. */
  rest: string[];
}

/** The right pane for the chosen server and tab. */
export function TabContent({ guild, tab, rest }: Props) {
  switch (tab) {
    case 'discord':
      return <DiscordTab guild={guild} />;
    case 'vrchat':
      return <VrchatTab guild={guild} />;
    case 'members':
      return <MembersTab guild={guild} />;
    case 'management':
      return <ManagementTab guild={guild} />;
    case 'worlds':
      return <WorldsTab guild={guild} rest={rest} />;
    default:
      return (
        <Paper withBorder p="lg">
          <Title order={2} size="h3" mb="sm">
            {guild.name}
          </Title>
          <Text c="dimmed">The {tab} settings of this server are not available yet.</Text>
        </Paper>
      );
  }
}
