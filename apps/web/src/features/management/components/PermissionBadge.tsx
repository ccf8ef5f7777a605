import { Badge } from '@mantine/core';
import type { GuildPermission } from '../../server-settings/api/guilds';
import { permissionLabel } from '../../server-settings/permissions';

/** A permission as the admin screens show it: 'Administrator' or its own name, in its own case. */
export function PermissionBadge({ permission }: { permission: GuildPermission }) {
  return (
    <Badge variant="light" tt="none">
      {permissionLabel(permission)}
    </Badge>
  );
}
