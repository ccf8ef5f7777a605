import { ExternalLinkButton } from '../../../components/ExternalLinkButton';
import type { ProfileGroup } from '../api/profile';
import { EntityList } from './EntityList';

export function VrchatGroups({ groups, vrchatWebUrl }: { groups: ProfileGroup[]; vrchatWebUrl?: string }) {
  return (
    <EntityList
      title="VRChat Groups"
      items={groups}
      empty="None of your servers has a VRChat group yet."
      actions={(group) => (
        <ExternalLinkButton href={vrchatWebUrl && `${vrchatWebUrl}/home/group/${group.id}`}>
          View Group
        </ExternalLinkButton>
      )}
    />
  );
}
