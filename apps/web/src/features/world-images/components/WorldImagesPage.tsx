import { Alert, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../../api/errors';
import type { ManageableGuild } from '../../../lib/guild-access/api/guilds';
import { can } from '../../../lib/guild-access/tabs';
import { useGuildSettings } from '../api/contactEmail';
import { useImageSlots } from '../api/imageSlots';
import { useWorld } from '../api/world';
import { EmailRequired } from './EmailRequired';
import { WorldImagesEditor } from './WorldImagesEditor';
import { isNotFound, WorldNotFound } from './WorldNotFound';

interface Props {
  guild: ManageableGuild;
  worldId: string;
}

/** `/server-settings/{serverId}/worlds/images/{worldId}`: the contact e-mail first, then the editor. */
export function WorldImagesPage({ guild, worldId }: Props) {
  const navigate = useNavigate();
  const canView = can(guild.permissions, 'ViewImages');
  const world = useWorld(guild.id, worldId, canView && can(guild.permissions, 'ViewWorlds'));

  return (
    <Stack gap="md">
      <Group gap="sm" wrap="nowrap" align="center">
        <Button
          variant="default"
          leftSection={<IconArrowLeft size={16} />}
          // A long world name beside it must not squeeze it to "← I": the name truncates instead.
          style={{ flexShrink: 0 }}
          onClick={() => navigate(`/server-settings/${guild.id}/worlds`)}
        >
          Back
        </Button>
        <div style={{ minWidth: 0 }}>
          <Title order={2} size="h3">
            World Images
          </Title>
          {world.data && (
            <Text c="dimmed" truncate>
              {world.data.name}
            </Text>
          )}
        </div>
      </Group>
      {!canView ? (
        <Paper withBorder p="lg">
          <Text c="dimmed">You need the ViewImages permission in this server to see its images.</Text>
        </Paper>
      ) : (
        <ContactGate guild={guild} worldId={worldId} />
      )}
    </Stack>
  );
}

/** The editor opens once the server has a contact e-mail ('Email Required' otherwise) — for one of its worlds. */
function ContactGate({ guild, worldId }: Props) {
  const settings = useGuildSettings(guild.id);
  // Read before the gate too, so an address naming no world of this server says so at once.
  const slots = useImageSlots(guild.id, worldId);
  if (slots.isError && isNotFound(slots.error)) return <WorldNotFound />;
  if (settings.isPending)
    return (
      <Center py={60}>
        <Loader aria-label="Loading server information" />
      </Center>
    );
  if (settings.isError)
    return (
      <Alert color="red" variant="light" title="Failed to load server information." role="alert">
        {errorMessage(settings.error, 'Please try again.')}
      </Alert>
    );
  if (!settings.data.contactEmail)
    return <EmailRequired guildId={guild.id} canManage={can(guild.permissions, 'ManageImages')} />;
  return <WorldImagesEditor guild={guild} worldId={worldId} />;
}
