import { Alert, Button, Center, Container, Loader, SimpleGrid, Stack, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { errorMessage } from '../../../api/errors';
import { usePublicConfig } from '../../../api/publicConfig';
import { SetupGuestsDialog } from '../../../lib/guests';
import { type LinkData, type ProfileGuild, useProfile } from '../api/profile';
import type { VrchatUserResult } from '../api/searchVrchatUsers';
import { DiscordServers } from './DiscordServers';
import { LinkAccountDialog } from './link-account/LinkAccountDialog';
import { MyDataSection } from './MyDataSection';
import { ProfileActions } from './ProfileActions';
import { ProfileHeader } from './ProfileHeader';
import { UserDetails } from './UserDetails';
import { VrchatGroups } from './VrchatGroups';

/** The linked account as the Link Account flow takes a search result (what the profile knows of it). */
const linkedAccount = (link: LinkData): VrchatUserResult => ({
  id: link.id,
  displayName: link.vrchatName,
  profileUrl: `https://vrchat.com/home/user/${link.id}`,
  thumbnailUrl: null,
});

function ProfileContent() {
  const profile = useProfile();
  const config = usePublicConfig();
  const [linkOpened, linkDialog] = useDisclosure(false);
  // Link Account from its search, or (Verify Account) on the code of the account linked but not yet verified.
  const [resuming, setResuming] = useState(false);
  const [guestsOpened, guestsDialog] = useDisclosure(false);
  // Kept after closing so the dialog keeps its title while it fades out.
  const [guestsGuild, setGuestsGuild] = useState<ProfileGuild | null>(null);

  if (profile.isPending) {
    return (
      <Center py={80}>
        <Loader aria-label="Loading profile" />
      </Center>
    );
  }
  if (profile.isError) {
    return (
      <Alert color="red" variant="light" title="Failed to load the profile." role="alert">
        {errorMessage(profile.error, 'Please try again.')}
        <div>
          <Button mt="sm" size="xs" variant="light" color="red" onClick={() => void profile.refetch()}>
            Try again
          </Button>
        </div>
      </Alert>
    );
  }

  const data = profile.data;
  return (
    <Stack gap="lg">
      <ProfileHeader
        profile={data}
        actions={
          <ProfileActions
            linked={data.linkData !== null}
            onLinkAccount={() => {
              setResuming(false);
              linkDialog.open();
            }}
            onVerify={
              data.linkData && !data.linkData.isVerified
                ? () => {
                    setResuming(true);
                    linkDialog.open();
                  }
                : undefined
            }
          />
        }
      />
      <UserDetails profile={data} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <DiscordServers
          guilds={data.guilds}
          discordWebUrl={config?.discordWebUrl}
          onSetupGuests={(guild) => {
            setGuestsGuild(guild);
            guestsDialog.open();
          }}
        />
        <VrchatGroups groups={data.groups} vrchatWebUrl={config?.vrchatWebUrl} />
      </SimpleGrid>
      <MyDataSection username={data.user.username} />
      <LinkAccountDialog
        opened={linkOpened}
        onClose={linkDialog.close}
        resume={resuming && data.linkData ? linkedAccount(data.linkData) : null}
      />
      <SetupGuestsDialog guild={guestsGuild} opened={guestsOpened} onClose={guestsDialog.close} />
    </Stack>
  );
}

/** /profile: the user, their VRChat link and its actions, their servers and groups. */
export function ProfilePage() {
  return (
    <Container size="lg" py="xl">
      <title>Profile · VRCLink</title>
      <Title order={1} mb="lg">
        Profile
      </Title>
      <ProfileContent />
    </Container>
  );
}
