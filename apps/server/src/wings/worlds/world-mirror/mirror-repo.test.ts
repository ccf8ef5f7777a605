import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { encodeWorldBody } from '../worlds/codec/lzw.js';
import { GitError, redact } from './git.js';
import { type PublishInput, publishWorlds } from './mirror-repo.js';
import { githubPagesUrl } from './mirror-url.js';
import { sameWorldData } from './same-world-data.js';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const root = mkdtempSync(join(tmpdir(), 'vrclink-mirror-repo-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const doc = (members: number, at = '2026-01-01T00:00:00.000Z') =>
  JSON.stringify({ Version: 1, LastUpdated: at, MemberCount: members });

describe('publishWorlds (against a local bare repository)', () => {
  let n = 0;
  let bare: string;
  let input: (bodies: [string, string][], keep?: string[]) => PublishInput;
  const sh = (...args: string[]) => execFileSync('git', ['-C', bare, ...args], { encoding: 'utf8' }).trim();
  const commits = () => Number(sh('rev-list', '--count', 'refs/heads/main'));
  const files = () => sh('ls-tree', '-r', '--name-only', 'refs/heads/main').split('\n');
  const file = (path: string) => sh('show', `refs/heads/main:${path}`);
  /** Whether a body is stored in any commit a ref of the remote reaches (its whole history). */
  const reachable = (body: string) => {
    const blob = execFileSync('git', ['hash-object', '--stdin'], { input: body, encoding: 'utf8' }).trim();
    return sh('rev-list', '--all', '--objects').includes(blob);
  };

  beforeEach(() => {
    n += 1;
    bare = join(root, `remote-${n}.git`);
    execFileSync('git', ['init', '--quiet', '--bare', bare]);
    const workDir = join(root, `work-${n}`);
    input = (bodies, keep = []) => ({
      remote: { url: bare, sshKeyFile: null, stateDir: root },
      branch: 'main',
      workDir,
      bodies: new Map(bodies),
      keep: new Set(keep),
    });
  });

  it('pushes the first commit to an empty remote: worlds/{id} and .nojekyll', async () => {
    const result = await publishWorlds(input([[A, doc(3)]]));
    expect(result).toMatchObject({ written: 1, removed: 0, worlds: 1 });
    expect(result.commit).toBe(sh('rev-parse', 'refs/heads/main'));
    expect(files().sort()).toEqual(['.nojekyll', `worlds/${A}`]);
    expect(file(`worlds/${A}`)).toBe(doc(3));
  });

  it('makes no commit when nothing changed, nor when only the build time moved', async () => {
    await publishWorlds(input([[A, doc(3)]]));
    expect((await publishWorlds(input([[A, doc(3)]]))).commit).toBeNull();
    const later = await publishWorlds(input([[A, doc(3, '2026-01-01T00:10:00.000Z')]]));
    expect(later.commit).toBeNull();
    expect(commits()).toBe(1);
  });

  it('replaces the branch with one commit per run: a world no longer given leaves the whole history', async () => {
    await publishWorlds(input([[A, doc(1)]]));
    const two = await publishWorlds(
      input([
        [A, doc(2)],
        [B, doc(5)],
      ]),
    );
    expect(two).toMatchObject({ written: 2, removed: 0, worlds: 2 });
    expect(commits()).toBe(1);
    expect(reachable(doc(1))).toBe(false);
    const gone = await publishWorlds(input([[B, doc(5)]]));
    expect(gone).toMatchObject({ written: 0, removed: 1, worlds: 1 });
    expect(files()).not.toContain(`worlds/${A}`);
    expect(commits()).toBe(1);
    expect(sh('rev-list', '--all')).toBe(gone.commit);
    expect(reachable(doc(2))).toBe(false);
    expect(reachable(doc(5))).toBe(true);
  });

  it('squashes a branch that still has history (a mirror from before), even when nothing changed', async () => {
    const old = join(root, `old-${n}`);
    execFileSync('git', ['init', '--quiet', '--initial-branch=main', old]);
    const commit = (body: string) =>
      execFileSync('sh', [
        '-c',
        `cd ${old} && mkdir -p worlds && printf '%s' '${body}' > worlds/${A} && touch .nojekyll && git add . && git -c user.name=x -c user.email=x@x commit -qm old`,
      ]);
    commit(doc(1));
    commit(doc(2));
    execFileSync('git', ['-C', old, 'push', '-q', bare, 'main']);
    expect(commits()).toBe(2);
    const result = await publishWorlds(input([[A, doc(2)]]));
    expect(result).toMatchObject({ written: 0, removed: 0, worlds: 1 });
    expect(result.commit).not.toBeNull();
    expect(commits()).toBe(1);
    expect(reachable(doc(1))).toBe(false);
    expect(file(`worlds/${A}`)).toBe(doc(2));
    expect((await publishWorlds(input([[A, doc(2)]]))).commit).toBeNull();
  });

  it('keeps the mirrored body of a world it is told to keep', async () => {
    await publishWorlds(
      input([
        [A, doc(1)],
        [B, doc(2)],
      ]),
    );
    expect((await publishWorlds(input([[B, doc(2)]], [A]))).commit).toBeNull();
    expect(file(`worlds/${A}`)).toBe(doc(1));
  });

  it('starts again from the remote: a file committed elsewhere is kept (in the one commit), a stray file in the clone is not', async () => {
    await publishWorlds(input([[A, doc(1)]]));
    const other = join(root, `other-${n}`);
    execFileSync('git', ['clone', '--quiet', '--branch', 'main', bare, other]);
    const inOther = `cd ${other} && echo hi > README.md && git add . && git -c user.name=x -c user.email=x@x commit -qm readme`;
    execFileSync('sh', ['-c', `${inOther} && git push -q origin HEAD:main`]);
    const args = input([[A, doc(2)]]);
    writeFileSync(join(args.workDir, 'worlds', 'stray'), 'left over from a crash');
    const result = await publishWorlds(args);
    expect(result).toMatchObject({ written: 1, removed: 0, worlds: 1 });
    expect(files().sort()).toEqual(['.nojekyll', 'README.md', `worlds/${A}`]);
    expect(commits()).toBe(1);
  });

  it('recovers from a working clone a crash left locked', async () => {
    const args = input([[A, doc(1)]]);
    await publishWorlds(args);
    writeFileSync(join(args.workDir, '.git', 'index.lock'), '');
    expect((await publishWorlds(input([[A, doc(2)]]))).commit).not.toBeNull();
    expect(file(`worlds/${A}`)).toBe(doc(2));
  });

  it('fails with git’s words and no credentials when the remote is gone, and pushes once it is back', async () => {
    const args = input([[A, doc(1)]]);
    const gone = { ...args, remote: { ...args.remote, url: `file://user:s3cret@${root}/missing.git` } };
    const err = await publishWorlds(gone).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitError);
    expect((err as Error).message).toMatch(/^git ls-remote failed: /);
    expect((err as Error).message).not.toContain('s3cret');
    expect((await publishWorlds(args)).commit).not.toBeNull();
  });
});

describe('sameWorldData', () => {
  it('ignores LastUpdated, plain or compressed, and nothing else', () => {
    expect(sameWorldData(doc(1), doc(1, '2027-01-01T00:00:00.000Z'))).toBe(true);
    expect(sameWorldData(doc(1), doc(2))).toBe(false);
    const zip = (json: string) => encodeWorldBody(json, true);
    expect(sameWorldData(zip(doc(1)), zip(doc(1, '2027-01-01T00:00:00.000Z')))).toBe(true);
    expect(sameWorldData(zip(doc(1)), zip(doc(2)))).toBe(false);
    expect(sameWorldData('not json', 'not json!')).toBe(false);
  });
});

describe('githubPagesUrl and redact', () => {
  it.each([
    ['https://x-access-token:ghp_abc@github.com/Owner/mirror.git', 'https://owner.github.io/mirror'],
    ['git@github.com:owner/mirror.git', 'https://owner.github.io/mirror'],
    ['ssh://git@github.com/owner/owner.github.io', 'https://owner.github.io'],
    ['https://gitlab.com/owner/mirror.git', null],
    ['/srv/mirror.git', null],
  ])('%s → %s', (remote, url) => {
    expect(githubPagesUrl(remote)).toBe(url);
  });

  it('removes the credentials of every URL in a text', () => {
    expect(redact("fatal: unable to access 'https://user:ghp_x@github.com/o/r.git/': 403")).toBe(
      "fatal: unable to access 'https://***@github.com/o/r.git/': 403",
    );
    expect(redact('https://github.com/o/r.git')).toBe('https://github.com/o/r.git');
  });
});
