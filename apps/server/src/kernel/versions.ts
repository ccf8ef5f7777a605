import { z } from 'zod';

/**
 * Saves that carry the version they were read at (guild settings, role mappings, guest roles): another
 * manager's save in between makes the version stale and the save answers 409 with one of these sentences,
 * so no change is silently lost. A save without a version (an older API client) is not checked.
 */
export const SETTINGS_CHANGED =
  'Another manager changed these settings since you opened them. The page now shows their version; check the preview and save again.';
export const MAPPING_CHANGED =
  'Another manager changed this mapping since you opened it. The table now shows their version; check it and save again.';
export const GUEST_ROLE_CHANGED =
  'Another manager changed this guest role since you opened it. The table now shows their version; check it and save again.';

const VERSION = 'version must be the whole number the settings were read with.';

/** The version a read answered, sent back with a save. */
export const versionField = z
  .number({ error: VERSION })
  .int({ error: VERSION })
  .min(0, { error: VERSION })
  .meta({ description: 'The version this was read at (from the read); a stale one answers 409.' });

/** Whether a save made from `read` (when given) is stale against the row as it is now (`current`). */
export const isStale = (read: number | undefined, current: number) => read !== undefined && read !== current;
