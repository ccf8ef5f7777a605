import { Group, NavLink, Paper, ScrollArea, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { NameAvatar } from '../../../components/NameAvatar';
import type { ManageableGuild } from '../api/guilds';

interface Props {
  guilds: ManageableGuild[];
  selectedId: string | null;
}

/**
 * The left pane: the caller's servers with a total count. Each server is a real link (an address Tab
 * reaches, which opens in a new tab too); the chosen one carries aria-current="page".
 */
export function ServerList({ guilds, selectedId }: Props) {
  return (
    <Paper withBorder p="sm" component="nav" aria-label="Your servers">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4">
          Servers
        </Title>
        <Text c="dimmed" size="sm" aria-label="Total servers">
          {guilds.length}
        </Text>
      </Group>
      {guilds.length === 0 ? (
        <Text c="dimmed" size="sm">
          No servers yet.
        </Text>
      ) : (
        <ScrollArea.Autosize mah="70vh">
          {guilds.map((guild) => (
            <NavLink
              key={guild.id}
              component={Link}
              to={`/server-settings/${guild.id}/discord`}
              label={guild.name}
              active={guild.id === selectedId}
              aria-current={guild.id === selectedId ? 'page' : undefined}
              leftSection={<NameAvatar src={guild.icon} name={guild.name} size="sm" />}
            />
          ))}
        </ScrollArea.Autosize>
      )}
    </Paper>
  );
}
