import { Alert, Stack, Text } from '@mantine/core';
import type { ManageableGuild } from '../../../lib/guild-access/api/guilds';
import { NoAccess } from '../../../lib/guild-access/components/NoAccess';
import { can } from '../../../lib/guild-access/tabs';
import { SetupCheckPanel } from '../../../lib/setup-doctor';
import { VrchatSlowNotice, vrchatFailureSentence } from '../../../lib/vrchat-wait';
import { useLinkedGroup } from '../api/linkedGroup';
import { GroupWithSync } from './GroupWithSync';
import { LinkGroup } from './LinkGroup';

/** The VRChat tab: the linked group and its settings, or the linking flow when none is linked. */
export function VrchatTab({ guild }: { guild: ManageableGuild }) {
  const canView = can(guild.permissions, 'ViewGuild');
  const group = useLinkedGroup(guild.id, canView);
  const canEdit = can(guild.permissions, 'Admin');

  if (!canView) return <NoAccess what="this server's VRChat settings" permission="ViewGuild" />;
  if (group.isPending)
    return (
      <Stack gap="xs">
        <Text>Loading..</Text>
        <VrchatSlowNotice pending />
      </Stack>
    );
  if (group.isError)
    return (
      <Alert color="red" variant="light" role="alert">
        {vrchatFailureSentence('Failed to load the VRChat group.', group.error)}
      </Alert>
    );
  if (!group.data) return <LinkGroup guildId={guild.id} canEdit={canEdit} />;
  return (
    <Stack gap="lg">
      <GroupWithSync guildId={guild.id} group={group.data} canEdit={canEdit} />
      <SetupCheckPanel guildId={guild.id} area="vrchat" />
    </Stack>
  );
}
