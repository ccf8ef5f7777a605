import { Button } from '@mantine/core';
import { IconExternalLink, IconUserPlus } from '@tabler/icons-react';
import type { ProfileGuild } from '../api/profile';
import { EntityList } from './EntityList';

interface Props {
  guilds: ProfileGuild[];
  discordWebUrl: string | undefined;
  onSetupGuests: (guild: ProfileGuild) => void;
}

export function DiscordServers({ guilds, discordWebUrl, onSetupGuests }: Props) {
  return (
    <EntityList
      title="Discord Servers"
      items={guilds}
      empty="You are not in any server that uses the bot yet."
      actions={(guild) => (
        <>
          <Button
            component="a"
            href={discordWebUrl ? `${discordWebUrl}/channels/${guild.id}` : undefined}
            target="_blank"
            rel="noopener noreferrer"
            size="xs"
            variant="default"
            disabled={!discordWebUrl}
            rightSection={<IconExternalLink size={14} />}
          >
            View Server
          </Button>
          {guild.canSetupGuests && (
            <Button size="xs" leftSection={<IconUserPlus size={14} />} onClick={() => onSetupGuests(guild)}>
              Setup Guests
            </Button>
          )}
        </>
      )}
    />
  );
}
