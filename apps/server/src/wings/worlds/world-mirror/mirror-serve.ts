import type { WorldMirrorConfig } from '../../../kernel/config.js';
import { git, localGitEnv } from './git.js';

/** How long a body read from the bare repository is reused (each read starts a git process). */
const CACHE_MS = 5_000;
const CACHE_MAX = 1_000;

const cache = new Map<string, { body: string | null; at: number }>();

/**
 * Demo mode's stand-in for GitHub Pages: the file `worlds/{id}` of the mirror branch in the local bare
 * repository, exactly as pushed; null when the mirror does not hold it (or has never been pushed to).
 */
export async function readMirroredWorld(config: WorldMirrorConfig, worldId: string): Promise<string | null> {
  if (!config.servedLocally || !config.remote) return null;
  const hit = cache.get(worldId);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.body;
  const path = config.remote;
  const body = await git(
    path,
    ['cat-file', 'blob', `refs/heads/${config.branch}:worlds/${worldId}`],
    localGitEnv(path),
  ).catch(() => null);
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(worldId, { body, at: Date.now() });
  return body;
}

/** After a push by this process: read again at once (other processes see it within CACHE_MS). */
export function forgetMirroredWorlds(): void {
  cache.clear();
}
