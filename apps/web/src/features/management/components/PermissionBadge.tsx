import { Badge } from '@mantine/core';
import type { GuildPermission } from '../../../lib/guild-access/api/guilds';
import { permissionLabel } from '../../../lib/guild-access/permissions';

/** A permission as the admin screens show it: 'Administrator' or its own name, in its own case. */
export function PermissionBadge({ permission }: { permission: GuildPermission }) {
  return (
    <Badge variant="light" tt="none">
      {permissionLabel(permission)}
    </Badge>
  );
}
