import { Center, Loader, Paper, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { ManageableGuild } from '../../lib/guild-access/api/guilds';
import type { ServerTab } from '../../lib/guild-access/tabs';

// Each tab is its own chunk, fetched when first opened (worlds brings drag and drop).
const DiscordTab = lazy(async () => ({
  default: (await import('../../features/discord-settings')).DiscordTab,
}));
const VrchatTab = lazy(async () => ({ default: (await import('../../features/vrchat-settings')).VrchatTab }));
const MembersTab = lazy(async () => ({ default: (await import('../../features/members')).MembersTab }));
const ManagementTab = lazy(async () => ({
  default: (await import('../../features/management')).ManagementTab,
}));
const WorldsTab = lazy(async () => ({ default: (await import('../../features/worlds')).WorldsTab }));
const WorldImagesPage = lazy(async () => ({
  default: (await import('../../features/world-images')).WorldImagesPage,
}));

interface Props {
  guild: ManageableGuild;
  tab: ServerTab;
  /** Path segments after the tab, e.g. `images/{worldId}` under worlds, the section under management. */
  rest: string[];
}

/** The right pane for the chosen server and tab. */
export function TabContent(props: Props) {
  return (
    <Suspense
      fallback={
        <Center py={60}>
          <Loader aria-label="Loading tab" />
        </Center>
      }
    >
      <Tab {...props} />
    </Suspense>
  );
}

function Tab({ guild, tab, rest }: Props) {
  switch (tab) {
    case 'discord':
      return <DiscordTab guild={guild} />;
    case 'vrchat':
      return <VrchatTab guild={guild} />;
    case 'members':
      return <MembersTab guild={guild} />;
    case 'management':
      return <ManagementTab guild={guild} section={rest[0]} />;
    case 'worlds':
      // worlds/images/{worldId}: the world's image editor.
      if (rest[0] === 'images' && rest[1]) return <WorldImagesPage guild={guild} worldId={rest[1]} />;
      return <WorldsTab guild={guild} />;
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
