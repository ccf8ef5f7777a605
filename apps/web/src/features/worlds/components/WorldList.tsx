import { Alert, Badge, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { errorMessage } from '../../../api/errors';
import { EmptyState } from '../../../components/EmptyState';
import type { ManageableGuild } from '../../../lib/guild-access/api/guilds';
import { can } from '../../../lib/guild-access/tabs';
import { useWorlds } from '../api/worlds';
import { CreateWorldButton } from './CreateWorldButton';
import { useOpenWorlds, WorldAccordion } from './WorldAccordion';
import { WORLDS_HEADING_ID } from './worldFocus';

/** The server's worlds: header with count and 'Create new', then the list, each world opening its settings. */
export function WorldList({ guild }: { guild: ManageableGuild }) {
  const canView = can(guild.permissions, 'ViewWorlds');
  const canManage = can(guild.permissions, 'ManageWorlds');
  const worlds = useWorlds(guild.id, canView);
  const { open, setOpen, reveal } = useOpenWorlds(guild.id, worlds.data?.worlds.map((w) => w.id) ?? []);

  if (!canView) {
    return (
      <Paper withBorder p="lg">
        <Text c="dimmed">You need the ViewWorlds permission in this server to see its worlds.</Text>
      </Paper>
    );
  }
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Group gap="xs">
          <Title order={2} size="h3" id={WORLDS_HEADING_ID}>
            Worlds
          </Title>
          {worlds.data && (
            <Badge variant="light" aria-label="Number of worlds">
              {worlds.data.worlds.length}
            </Badge>
          )}
        </Group>
        {canManage && <CreateWorldButton guildId={guild.id} onCreated={reveal} />}
      </Group>
      {worlds.isPending ? (
        <Center py={60}>
          <Loader aria-label="Loading worlds" />
        </Center>
      ) : worlds.isError ? (
        <Alert color="red" variant="light" title="Failed to load worlds.">
          {errorMessage(worlds.error, 'Please try again.')}
        </Alert>
      ) : worlds.data.worlds.length === 0 ? (
        <EmptyState title="No worlds yet">
          {canManage
            ? 'Create one with Create new to give a VRChat world its data.'
            : 'An admin of this server can create one.'}
        </EmptyState>
      ) : (
        <WorldAccordion guild={guild} worlds={worlds.data} open={open} onChange={setOpen} />
      )}
    </Stack>
  );
}
