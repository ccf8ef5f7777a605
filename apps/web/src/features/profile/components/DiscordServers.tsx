import { Button } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { ExternalLinkButton } from '../../../components/ExternalLinkButton';
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
          <ExternalLinkButton href={discordWebUrl && `${discordWebUrl}/channels/${guild.id}`}>
            View Server
          </ExternalLinkButton>
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
