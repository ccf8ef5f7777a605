import { Alert, Divider, Stack } from '@mantine/core';
import type { ManageableGuild } from '../../../lib/guild-access/api/guilds';
import { can } from '../../../lib/guild-access/tabs';
import type { World, WorldsResponse } from '../api/worlds';
import { CustomDataEditor } from './CustomDataEditor';
import { SAVE_FAILED, useWorldSave } from './useWorldSave';
import { WorldActions } from './WorldActions';
import { WorldHeader } from './WorldHeader';
import { WorldRolePickers } from './WorldRolePickers';
import { WorldToggles } from './WorldToggles';

interface Props {
  guild: ManageableGuild;
  world: World;
  roles: Pick<WorldsResponse, 'discordRoles' | 'groupRoles'>;
  /** Where focus goes once this world is deleted (its buttons go with it). */
  focusAfterDelete: () => HTMLElement | null;
}

/** The id of a world's card, so what made the world (Create new) can move focus to it. */
export const worldCardId = (worldId: string) => `world-${worldId}`;

/** One world's settings (the body of its entry in the list); controls are read-only without ManageWorlds. */
export function WorldCard({ guild, world, roles, focusAfterDelete }: Props) {
  const canManage = can(guild.permissions, 'ManageWorlds');
  const { save, saveRoles, error, dismissError } = useWorldSave(guild.id, world.id);
  return (
    <article aria-label={world.name} id={worldCardId(world.id)}>
      <Stack gap="md">
        <WorldHeader
          guildId={guild.id}
          world={world}
          canManage={canManage}
          canPreview={can(guild.permissions, 'WorldPreview')}
          onSave={save}
        />
        {error && (
          <Alert color="red" variant="light" title={SAVE_FAILED} withCloseButton onClose={dismissError}>
            {error}
          </Alert>
        )}
        <WorldToggles world={world} readOnly={!canManage} onSave={save} />
        <Divider />
        <WorldRolePickers world={world} roles={roles} readOnly={!canManage} onSave={saveRoles} />
        <CustomDataEditor world={world} readOnly={!canManage} onSave={save} />
        <WorldActions
          guildId={guild.id}
          world={world}
          canManage={canManage}
          canViewImages={can(guild.permissions, 'ViewImages')}
          focusAfterDelete={focusAfterDelete}
        />
      </Stack>
    </article>
  );
}
