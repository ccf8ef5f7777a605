import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type GitRemote, git, gitEnv } from './git.js';
import { sameWorldData } from './same-world-data.js';

/** The commit's author: the mirror, not a person. */
const AUTHOR = ['-c', 'user.name=VRCLink world mirror', '-c', 'user.email=world-mirror@vrclink.invalid'];

export interface PublishInput {
  remote: GitRemote;
  branch: string;
  /** The working clone (created on first use). */
  workDir: string;
  /** The body of every world the mirror should hold, by world id. */
  bodies: ReadonlyMap<string, string>;
  /** Worlds to keep as they are in the mirror (their data could not be built this time). */
  keep: ReadonlySet<string>;
}

export interface PublishResult {
  /** The commit pushed, or null when nothing changed (no commit, no push). */
  commit: string | null;
  written: number;
  removed: number;
  /** World files in the mirror after this run. */
  worlds: number;
}

/**
 * Makes the remote branch hold exactly `worlds/{id}` for the given bodies (plus `.nojekyll`, so GitHub Pages
 * serves the files as they are): the working clone is reset to the remote branch first (an empty remote
 * starts from nothing), then one commit for every change, pushed. A run that changes nothing (a body
 * differing only in its build time is no change) makes no commit. A push that fails leaves the remote as it
 * was; the next run starts again from the remote.
 */
export async function publishWorlds(input: PublishInput): Promise<PublishResult> {
  const env = gitEnv(input.remote);
  const run = (args: string[]) => git(input.workDir, args, env);
  await resetToRemote(input, run).catch(async () => {
    // A clone left broken (a crash mid-commit leaves .git/index.lock): once more from a fresh one. A remote
    // that cannot be reached fails again, with git's words.
    await rm(input.workDir, { recursive: true, force: true });
    await resetToRemote(input, run);
  });

  const dir = join(input.workDir, 'worlds');
  await mkdir(dir, { recursive: true });
  const present = new Set(await readdir(dir));
  let removed = 0;
  for (const name of present) {
    if (input.bodies.has(name) || input.keep.has(name)) continue;
    await rm(join(dir, name), { recursive: true, force: true });
    removed += 1;
  }
  for (const [id, body] of input.bodies) {
    const file = join(dir, id);
    // Only the build time differs: keep the mirrored body (an unchanged world makes no commit).
    if (present.has(id) && sameWorldData(await readFile(file, 'utf8'), body)) continue;
    await writeFile(file, body, 'utf8');
  }
  await writeFile(join(input.workDir, '.nojekyll'), '');

  await run(['add', '--all']);
  const status = (await run(['status', '--porcelain', '--no-renames'])).trim();
  const worlds = (await readdir(dir)).length;
  if (!status) return { commit: null, written: 0, removed: 0, worlds };
  const written = status.split('\n').filter((line) => /^[AM]\s+worlds\//.test(line)).length;
  await run([
    ...AUTHOR,
    'commit',
    '--quiet',
    '--no-verify',
    '--no-gpg-sign',
    '-m',
    `Mirror world data: ${written} written, ${removed} removed`,
  ]);
  await run(['push', '--quiet', 'origin', `HEAD:refs/heads/${input.branch}`]);
  const commit = (await run(['rev-parse', 'HEAD'])).trim();
  return { commit, written, removed, worlds };
}

/** The working clone as the remote branch holds it (nothing at all when the branch does not exist yet). */
async function resetToRemote(input: PublishInput, run: (args: string[]) => Promise<string>) {
  const ref = `refs/heads/${input.branch}`;
  if (!existsSync(join(input.workDir, '.git'))) {
    await mkdir(input.workDir, { recursive: true });
    await run(['init', '--quiet']);
  }
  await run(['symbolic-ref', 'HEAD', ref]);
  const exists = (await run(['ls-remote', '--heads', 'origin', ref])).trim() !== '';
  if (exists) {
    await run(['fetch', '--quiet', '--depth=1', 'origin', ref]);
    await run(['reset', '--quiet', '--hard', 'FETCH_HEAD']);
  } else {
    // An empty remote (first run, or the branch was deleted): the next commit is the first one.
    await run(['update-ref', '-d', 'HEAD']).catch(() => {});
    await run(['rm', '-r', '-q', '--cached', '--ignore-unmatch', '.']);
  }
  await run(['clean', '--quiet', '-ffdx']);
}
