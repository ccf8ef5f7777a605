import { Avatar, type AvatarProps } from '@mantine/core';
import { initialOf } from '../../../../components/NameAvatar';
import type { VrchatUserResult } from '../../api/searchVrchatUsers';

/**
 * The VRChat thumbnail (so look-alike names can be told apart), the name as its alt text; the name's
 * initial when VRChat has no image or it fails to load (round, as every avatar).
 */
export function VrchatUserAvatar({
  user,
  size = 40,
}: {
  user: Pick<VrchatUserResult, 'displayName' | 'thumbnailUrl'>;
  size?: AvatarProps['size'];
}) {
  return (
    <Avatar src={user.thumbnailUrl} alt={user.displayName} size={size} radius="xl" color="violet">
      <span aria-hidden>{initialOf(user.displayName)}</span>
    </Avatar>
  );
}
