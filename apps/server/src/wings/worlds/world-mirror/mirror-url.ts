import type { AppConfig } from '../../../kernel/config.js';

/** `https://[token@]github.com/owner/repo(.git)`, `git@github.com:owner/repo.git` or `ssh://git@github.com/owner/repo`. */
const GITHUB_REMOTE =
  /^(?:https:\/\/(?:[^@/]+@)?github\.com\/|ssh:\/\/git@github\.com\/|git@github\.com:)([^/]+)\/([^/]+?)(?:\.git)?\/?$/i;

/** The GitHub Pages site of a github.com repository, or null for any other remote. */
export function githubPagesUrl(remote: string): string | null {
  const match = GITHUB_REMOTE.exec(remote.trim());
  if (!match) return null;
  const owner = (match[1] ?? '').toLowerCase();
  const repo = match[2] ?? '';
  // A repository named `<owner>.github.io` is the owner's site itself.
  return repo.toLowerCase() === `${owner}.github.io`
    ? `https://${owner}.github.io`
    : `https://${owner}.github.io/${repo}`;
}

/**
 * Where the mirror is read (a world's 'Trusted URL' is `<base>/worlds/<guid>`): WORLD_MIRROR_URL, else this
 * server's /mirror in demo mode, else the Pages site of a github.com remote; null when there is no mirror.
 */
export function mirrorBaseUrl(config: AppConfig, origin: string): string | null {
  if (config.worldMirrorUrl) return config.worldMirrorUrl;
  if (config.worldMirror.servedLocally) return `${origin}/mirror`;
  return config.worldMirror.remote ? githubPagesUrl(config.worldMirror.remote) : null;
}
