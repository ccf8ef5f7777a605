import { Container, Grid, Stack, Title } from '@mantine/core';
import { IconBrandDiscord } from '@tabler/icons-react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { usePublicConfig } from '../../api/publicConfig';
import { EmptyState } from '../../components/EmptyState';
import { ExternalLinkButton } from '../../components/ExternalLinkButton';
import { Loaded } from '../../components/QueryStatus';
import { useGuilds } from '../../lib/guild-access/api/guilds';
import { ServerList } from '../../lib/guild-access/components/ServerList';
import { parseServerSettingsPath } from '../../lib/guild-access/tabs';
import { ServerTabPanel, ServerTabs } from './ServerTabs';
import { TabContent } from './TabContent';

export function ServerSettingsPage() {
  const guilds = useGuilds();
  const navigate = useNavigate();
  const { serverId, tab, rest } = parseServerSettingsPath(useParams()['*']);
  const guild = guilds.data?.find((g) => g.id === serverId) ?? null;

  // A missing or unknown tab in the address (/server-settings/{id}/nonsense) opens the Discord tab.
  if (guild && !tab) return <Navigate to={`/server-settings/${guild.id}/discord`} replace />;

  // The header's width (AppLayout: Container size="lg"), so both line up.
  return (
    <Container size="lg" py="xl">
      <title>Server Settings · VRCLink</title>
      <Title order={1} mb="md">
        Server Settings
      </Title>
      <Loaded query={guilds} loading="Loading servers" failed="Failed to load server information." py={80}>
        {(data) => (
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, md: 3 }}>
              <ServerList guilds={data} selectedId={serverId} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 9 }}>
              <Stack gap="md">
                <ServerTabs
                  selected={guild ? tab : null}
                  onSelect={(next) => guild && navigate(`/server-settings/${guild.id}/${next}`)}
                />
                {guild && tab ? (
                  <ServerTabPanel tab={tab}>
                    <TabContent key={`${guild.id}/${tab}`} guild={guild} tab={tab} rest={rest} />
                  </ServerTabPanel>
                ) : data.length === 0 ? (
                  <NoServers />
                ) : (
                  <EmptyState title="No Server Selected" order={2}>
                    {serverId && !guild
                      ? 'You cannot manage this server, or the bot is not in it.'
                      : 'Choose a server on the left.'}
                  </EmptyState>
                )}
              </Stack>
            </Grid.Col>
          </Grid>
        )}
      </Loaded>
    </Container>
  );
}

/** The right pane for someone who manages no server: says so and offers to invite the bot. */
function NoServers() {
  const config = usePublicConfig();
  return (
    <EmptyState
      title="No Servers to Manage"
      order={2}
      textAlign="center"
      gap="sm"
      action={
        <ExternalLinkButton
          href={config?.inviteUrl}
          size="sm"
          variant="filled"
          icon={<IconBrandDiscord size={18} />}
        >
          Invite to Server
        </ExternalLinkButton>
      }
    >
      You do not manage any server that uses the bot. Invite the bot to a server you run, or ask a server
      admin for access.
    </EmptyState>
  );
}
