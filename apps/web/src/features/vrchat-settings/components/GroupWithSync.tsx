import { Stack } from '@mantine/core';
import { HeldRemovalsAlert } from '../../../lib/sync/components/HeldRemovalsAlert';
import type { LinkedGroup } from '../api/linkedGroup';
import { LinkedGroupView } from './LinkedGroupView';
import { SyncSection } from './SyncSection';

interface Props {
  guildId: string;
  group: LinkedGroup;
  canEdit: boolean;
}

/** The linked group with the sync around it: held removals on top, the Sync section below Settings (Admin). */
export function GroupWithSync({ guildId, group, canEdit }: Props) {
  if (!canEdit) return <LinkedGroupView guildId={guildId} group={group} canEdit={false} />;
  return (
    <Stack gap="lg">
      <HeldRemovalsAlert guildId={guildId} />
      <LinkedGroupView guildId={guildId} group={group} canEdit />
      <SyncSection guildId={guildId} group={group} />
    </Stack>
  );
}
