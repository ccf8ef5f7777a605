import { Button } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import type { ProfileGroup } from '../api/profile';
import { EntityList } from './EntityList';

export function VrchatGroups({ groups, vrchatWebUrl }: { groups: ProfileGroup[]; vrchatWebUrl?: string }) {
  return (
    <EntityList
      title="VRChat Groups"
      items={groups}
      empty="None of your servers has a VRChat group yet."
      actions={(group) => (
        <Button
          component="a"
          href={vrchatWebUrl ? `${vrchatWebUrl}/home/group/${group.id}` : undefined}
          target="_blank"
          rel="noopener noreferrer"
          size="xs"
          variant="default"
          disabled={!vrchatWebUrl}
          rightSection={<IconExternalLink size={14} />}
        >
          View Group
        </Button>
      )}
    />
  );
}
