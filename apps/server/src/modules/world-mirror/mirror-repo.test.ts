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

  it('makes one commit for changes to two worlds, and removes a world no longer given', async () => {
    await publishWorlds(input([[A, doc(1)]]));
    const two = await publishWorlds(
      input([
        [A, doc(2)],
        [B, doc(5)],
      ]),
    );
    expect(two).toMatchObject({ written: 2, removed: 0, worlds: 2 });
    expect(commits()).toBe(2);
    const gone = await publishWorlds(input([[B, doc(5)]]));
    expect(gone).toMatchObject({ written: 0, removed: 1, worlds: 1 });
    expect(files()).not.toContain(`worlds/${A}`);
    expect(commits()).toBe(3);
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

  it('starts again from the remote: a commit made elsewhere is kept, a stray file in the clone is not', async () => {
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
    expect(commits()).toBe(3);
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
