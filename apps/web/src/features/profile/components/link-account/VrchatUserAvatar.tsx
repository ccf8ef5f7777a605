import { Avatar, type AvatarProps } from '@mantine/core';
import type { VrchatUserResult } from '../../api/searchVrchatUsers';

/**
 * The VRChat thumbnail (so look-alike names can be told apart), the name as its alt text; the name's
 * first letters when VRChat has no image or it fails to load.
 */
export function VrchatUserAvatar({
  user,
  size = 40,
}: {
  user: Pick<VrchatUserResult, 'displayName' | 'thumbnailUrl'>;
  size?: AvatarProps['size'];
}) {
  return (
    <Avatar src={user.thumbnailUrl} alt={user.displayName} size={size} radius="md" color="violet">
      {user.displayName.slice(0, 2).toUpperCase()}
    </Avatar>
  );
}
