import { z } from 'zod';

const when = z.string().nullable();

/** The mirror as /admin shows it to platform admins. */
export const worldMirrorStatus = z.object({
  /** A remote is configured (WORLD_MIRROR_REMOTE, or demo mode's local repository). */
  configured: z.boolean(),
  /** The remote with any credentials removed. */
  remote: z.string().nullable(),
  branch: z.string(),
  /** Where the mirror is read: a world's Trusted URL is `<url>/worlds/<worldId>`. */
  url: z.string().nullable(),
  /** Demo mode: this server serves the mirror itself at /mirror. */
  servedLocally: z.boolean(),
  lastRunAt: when,
  lastSuccessAt: when,
  lastCommit: z.string().nullable(),
  lastCommitAt: when,
  worlds: z.number().int(),
  worldsNotBuilt: z.number().int(),
  /** Why the last run failed; cleared by the next run that succeeds. */
  lastError: z.string().nullable(),
  lastErrorAt: when,
  consecutiveFailures: z.number().int(),
});
z.globalRegistry.add(worldMirrorStatus, { id: 'WorldMirrorStatus' });

export const mirroredWorldParams = z.object({ worldId: z.uuid() });
