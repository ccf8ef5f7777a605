import { useState } from 'react';
import { errorMessage } from '../../../api/errors';
import { type RoleListKey, useSetWorldRoles } from '../api/setWorldRoles';
import { useUpdateWorld, type WorldChange } from '../api/updateWorld';
import type { WorldRoleEntry } from '../api/worlds';

export const SAVE_FAILED = 'Failed to update world settings';

/**
 * Saves one world's settings and role lists. A failure keeps the server's reason for the card's alert (titled
 * SAVE_FAILED) until the next successful save: the one place it is said, no toast besides. Each call answers
 * whether it was saved.
 */
export function useWorldSave(guildId: string, worldId: string) {
  const update = useUpdateWorld(guildId);
  const setRoles = useSetWorldRoles(guildId);
  const [error, setError] = useState<string | null>(null);

  async function run(call: () => Promise<unknown>): Promise<boolean> {
    try {
      await call();
      setError(null);
      return true;
    } catch (err) {
      setError(errorMessage(err, 'Please try again.'));
      return false;
    }
  }

  return {
    error,
    dismissError: () => setError(null),
    save: (change: WorldChange) => run(() => update.mutateAsync({ worldId, change })),
    saveRoles: (list: RoleListKey, roles: WorldRoleEntry[]) =>
      run(() => setRoles.mutateAsync({ worldId, list, roles })),
  };
}
