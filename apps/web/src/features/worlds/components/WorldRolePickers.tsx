import { SimpleGrid, Stack, Text } from '@mantine/core';
import type { RoleListKey } from '../api/setWorldRoles';
import type { World, WorldRoleEntry, WorldsResponse } from '../api/worlds';
import { type RoleOption, RolePicker } from './RolePicker';

const pickers: { key: RoleListKey; label: string; description: string; source: 'discord' | 'group' }[] = [
  {
    key: 'discordEncodeRoles',
    label: 'Discord Encode Roles',
    description: 'Each member is listed under the highest of these roles they hold.',
    source: 'discord',
  },
  {
    key: 'discordAlwaysEncodeRoles',
    label: 'Discord Always Encode Roles',
    description: 'Each member is listed under every one of these roles they hold.',
    source: 'discord',
  },
  {
    key: 'groupEncodeRoles',
    label: 'Group Encode Roles',
    description: 'Each group member is listed under the highest of these roles they hold.',
    source: 'group',
  },
  {
    key: 'groupAlwaysEncodeRoles',
    label: 'Group Always Encode Roles',
    description: 'Each group member is listed under every one of these roles they hold.',
    source: 'group',
  },
];

interface Props {
  world: World;
  roles: Pick<WorldsResponse, 'discordRoles' | 'groupRoles'>;
  readOnly: boolean;
  onSave: (list: RoleListKey, roles: WorldRoleEntry[]) => void;
}

/** The four ordered role lists of a world; each change saves the whole list. */
export function WorldRolePickers({ world, roles, readOnly, onSave }: Props) {
  const options: Record<'discord' | 'group', RoleOption[]> = {
    discord: roles.discordRoles,
    group: (roles.groupRoles ?? []).map((r) => ({ id: r.id, name: r.name, color: 0, position: r.order })),
  };
  return (
    <Stack gap="xs">
      {roles.groupRoles === null && (
        <Text size="sm" c="orange" role="status">
          {GROUP_ROLES_UNKNOWN}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        {pickers.map(({ key, label, description, source }) => (
          <RolePicker
            key={key}
            label={label}
            description={description}
            value={world[key]}
            options={options[source]}
            readOnly={readOnly}
            onChange={(next) => onSave(key, next)}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/** The server could not read the linked group's roles (none kept yet, VRChat unavailable): not "no roles". */
export const GROUP_ROLES_UNKNOWN =
  "The VRChat group's roles could not be read right now, so group roles show by their ids and none can be added. Try again in a minute.";
