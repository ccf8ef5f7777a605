import { Avatar, Group, NavLink, Paper, ScrollArea, Text, Title } from '@mantine/core';
import type { ManageableGuild } from '../api/guilds';

interface Props {
  guilds: ManageableGuild[];
  selectedId: string | null;
  onSelect: (guild: ManageableGuild) => void;
}

/** The left pane: the caller's servers with a total count. */
export function ServerList({ guilds, selectedId, onSelect }: Props) {
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
              label={guild.name}
              active={guild.id === selectedId}
              onClick={() => onSelect(guild)}
              leftSection={
                <Avatar src={guild.icon} alt="" size="sm" radius="xl">
                  {guild.name.slice(0, 1)}
                </Avatar>
              }
            />
          ))}
        </ScrollArea.Autosize>
      )}
    </Paper>
  );
}
