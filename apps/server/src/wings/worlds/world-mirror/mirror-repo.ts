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
 * starts from nothing), then the new tree is published as ONE commit without parents that replaces the
 * branch (a force-push, leased on the commit read), so the mirror never keeps an old body in its history:
 * an unlinked member or a world turned off leaves GitHub with the next run. A run that changes nothing (a
 * body differing only in its build time is no change) makes no commit, unless the branch still has history
 * (a mirror from before this rule, or a commit made elsewhere): then it is squashed to one commit. A push
 * that fails leaves the remote as it was; the next run starts again from the remote.
 */
export async function publishWorlds(input: PublishInput): Promise<PublishResult> {
  const env = gitEnv(input.remote);
  const run = (args: string[]) => git(input.workDir, args, env);
  const remoteHead = await resetToRemote(input, run).catch(async () => {
    // A clone left broken (a crash mid-commit leaves .git/index.lock): once more from a fresh one. A remote
    // that cannot be reached fails again, with git's words.
    await rm(input.workDir, { recursive: true, force: true });
    return resetToRemote(input, run);
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
  const hasHistory = remoteHead !== null && (await hasParent(remoteHead, run));
  if (!status && !hasHistory) return { commit: null, written: 0, removed: 0, worlds };
  const written = status.split('\n').filter((line) => /^[AM]\s+worlds\//.test(line)).length;
  const tree = (await run(['write-tree'])).trim();
  const message = `Mirror world data: ${written} written, ${removed} removed`;
  // No parent: the branch is this one commit, the bodies it replaces are no longer reachable.
  const commit = (await run([...AUTHOR, 'commit-tree', '--no-gpg-sign', tree, '-m', message])).trim();
  // Leased on what was read: a branch moved by someone else meanwhile is refused, not overwritten blindly.
  const lease = `--force-with-lease=refs/heads/${input.branch}:${remoteHead ?? ''}`;
  await run(['push', '--quiet', lease, 'origin', `${commit}:refs/heads/${input.branch}`]);
  await run(['reset', '--quiet', '--soft', commit]);
  return { commit, written, removed, worlds };
}

/** Whether a commit has a parent (read from the commit itself: a shallow fetch has not got the parent). */
async function hasParent(commit: string, run: (args: string[]) => Promise<string>) {
  return /^parent /m.test(await run(['cat-file', 'commit', commit]));
}

/**
 * The working clone as the remote branch holds it (nothing at all when the branch does not exist yet);
 * answers the remote branch's commit, or null when there is none.
 */
async function resetToRemote(
  input: PublishInput,
  run: (args: string[]) => Promise<string>,
): Promise<string | null> {
  const ref = `refs/heads/${input.branch}`;
  if (!existsSync(join(input.workDir, '.git'))) {
    await mkdir(input.workDir, { recursive: true });
    await run(['init', '--quiet']);
  }
  await run(['symbolic-ref', 'HEAD', ref]);
  const exists = (await run(['ls-remote', '--heads', 'origin', ref])).trim() !== '';
  let head: string | null = null;
  if (exists) {
    await run(['fetch', '--quiet', '--depth=1', 'origin', ref]);
    await run(['reset', '--quiet', '--hard', 'FETCH_HEAD']);
    head = (await run(['rev-parse', 'FETCH_HEAD'])).trim();
  } else {
    // An empty remote (first run, or the branch was deleted): the next commit is the first one.
    await run(['update-ref', '-d', 'HEAD']).catch(() => {});
    await run(['rm', '-r', '-q', '--cached', '--ignore-unmatch', '.']);
  }
  await run(['clean', '--quiet', '-ffdx']);
  return head;
}
