import { Stack } from '@mantine/core';
import { useState } from 'react';
import { notify } from '../../../components/toasts';
import { VrchatSlowNotice } from '../../../lib/vrchat-wait';
import { type GroupLinkInfo, useStartGroupLink } from '../api/startGroupLink';
import { linkFailureText } from '../linkErrors';
import { GroupIdEntry } from './GroupIdEntry';
import { LinkingStep } from './LinkingStep';

/** Step 0: enter the group id; step 1: put the link code into the group's description and link. */
export function LinkGroup({ guildId, canEdit }: { guildId: string; canEdit: boolean }) {
  const start = useStartGroupLink(guildId);
  const [linking, setLinking] = useState<GroupLinkInfo | null>(null);

  const begin = (groupId: string) =>
    start.mutate(groupId, {
      onSuccess: setLinking,
      onError: (error) =>
        notify({
          type: 'error',
          message: linkFailureText(error, 'Error while linking, does the group exist ?'),
        }),
    });

  if (linking) return <LinkingStep guildId={guildId} info={linking} onBack={() => setLinking(null)} />;
  return (
    <Stack gap="sm">
      <GroupIdEntry canEdit={canEdit} loading={start.isPending} onStart={begin} />
      <VrchatSlowNotice pending={start.isPending} />
    </Stack>
  );
}
