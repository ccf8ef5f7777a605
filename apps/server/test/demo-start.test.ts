import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { demoSeed } from '../src/demo-seed.js';
import { portInUseSentence } from '../src/http/listen-port.js';
import { DISK_FULL_AT_START } from '../src/kernel/disk.js';
import { freePort, type ServerProcess, startServerProcess, waitUntilReady } from './server-process.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const tsx = join(repoRoot, 'node_modules/.bin/tsx');
const main = 'apps/server/src/main.ts';
/** What a person starting the demo has: no platform credentials, the embedded database. */
const demoEnv = { DATABASE_URL: '', HOST: '', PUBLIC_URL: '', LOG_FORMAT: '', LOG_LEVEL: 'info' };

// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colour codes are what it removes
const withoutColours = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

/** The addresses a port is listened on, read from the kernel's socket tables (Linux). */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const found: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (state !== '0A' || !local?.endsWith(`:${hexPort}`)) continue;
      found.push(local.slice(0, -5));
    }
  }
  return found;
}

/** What the bot answers a member's `/link` in the Hangout, run through the simulator's control API. */
async function linkCommandAnswer(simulatorUrl: string): Promise<string> {
  const control = (path: string, init?: RequestInit) =>
    fetch(`${simulatorUrl}/control/discord${path}`, {
      ...init,
      headers: { 'content-type': 'application/json' },
    }).then((r) => r.json() as Promise<Record<string, unknown>>);
  for (;;) {
    const sent = await control('/interactions', {
      method: 'POST',
      body: JSON.stringify({
        guildId: demoSeed.hangout.id,
        userId: demoSeed.linkedDiscordUserId,
        commandName: 'link',
      }),
    });
    // Until the bot has registered its commands (at start, after login) there is no /link to run, and until its
    // gateway session is up nobody to deliver to: ask again once it is.
    const notYet =
      typeof sent.message === 'string' && /No chat-input command .* is registered/.test(sent.message);
    if (!notYet && typeof sent.interactionId !== 'string')
      throw new Error(`The simulator refused: ${JSON.stringify(sent)}`);
    if (notYet || sent.deliveredTo === 0) {
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    // Discord gives up on an interaction unanswered for 3 s ("The application did not respond"), and the
    // member runs the command again: so does this, in case the command came while the bot was still starting.
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      const view = (await control(`/interactions/${sent.interactionId}`)) as {
        callback?: { data?: { content?: string } };
      };
      const content = view.callback?.data?.content;
      if (content) return content;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe('starting the demo', () => {
  describe('as `npm start` in a pipe, with nothing set', () => {
    let proc: ServerProcess;
    let simulatorUrl: string;
    beforeAll(async () => {
      const simulatorPort = await freePort();
      simulatorUrl = `http://127.0.0.1:${simulatorPort}`;
      proc = await startServerProcess({ ...demoEnv, SIMULATOR_PORT: String(simulatorPort) });
    }, 120_000);
    afterAll(() => proc?.stop());

    it('listens on 127.0.0.1 only, so the pick-anyone demo is not open to the network', () => {
      const port = Number(new URL(proc.url).port);
      expect(listeningAddresses(port)).toEqual(['0100007F']);
    });

    it('prints the address it listens on and logs one JSON object a line', async () => {
      // Printed once the login callback is registered with the simulator, which may come after the first
      // health answer the start waited for.
      await vi.waitFor(() => expect(proc.output()).toContain(`Listening on ${proc.url}\n`), {
        timeout: 30_000,
        interval: 100,
      });
      const output = proc.output();
      const roles = output.split('\n').find((line) => line.includes('"Process roles"'));
      expect(JSON.parse(roles ?? 'not logged')).toMatchObject({ level: 30, msg: 'Process roles' });
    });

    it('registers the printed address’s login callback with the simulated Discord, which refuses others', async () => {
      const registered = await fetch(`${simulatorUrl}/control/discord/application/redirect-uris`);
      expect(await registered.json()).toEqual({ redirectUris: [`${proc.url}/discord/login/callback`] });
      const login = await fetch(`${proc.url}/api/login`);
      const authorize = new URL(((await login.json()) as { redirectUri: string }).redirectUri);
      expect((await fetch(authorize)).status).toBe(200);
      authorize.searchParams.set('redirect_uri', 'http://127.0.0.1:1/discord/login/callback');
      expect((await fetch(authorize)).status).toBe(400);
    });

    it("builds the bot's links from the printed address", async () => {
      expect(await linkCommandAnswer(simulatorUrl)).toContain(`${proc.url}/profile`);
    }, 120_000);
  });

  describe('in a terminal, on HOST=localhost', () => {
    let child: ChildProcess;
    let output = '';
    let url: string;
    const dataDir = mkdtempSync(join(tmpdir(), 'vrclink-tty-'));
    beforeAll(async () => {
      const [port, simulatorPort] = [await freePort(), await freePort()];
      url = `http://localhost:${port}`;
      // `script` gives the server a pseudo-terminal as its standard output, as a person's shell does.
      child = spawn('script', ['-qfec', `${tsx} ${main}`, '/dev/null'], {
        cwd: repoRoot,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          ...demoEnv,
          NODE_ENV: 'test',
          HOST: 'localhost',
          PORT: String(port),
          SIMULATOR_PORT: String(simulatorPort),
          DATA_DIR: dataDir,
        },
      });
      const listening = new Promise<void>((resolve, reject) => {
        const keep = (chunk: Buffer) => {
          output = withoutColours(output + chunk.toString());
          if (output.includes('Listening on')) resolve();
        };
        child.stdout?.on('data', keep);
        child.stderr?.on('data', keep);
        child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
      });
      await listening;
    }, 120_000);
    afterAll(() => {
      if (child?.pid && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('logs lines a person can read, not JSON', () => {
      expect(output).toMatch(/\d\d:\d\d:\d\d\] INFO: Process roles/);
      expect(output).not.toContain('{"level"');
    });

    // The links the bot builds from it are checked in the pipe case above and in env.test.ts (resolveConfig).
    it('prints the address it was asked to listen on', () => {
      expect(output).toContain(`Listening on ${url}`);
    });
  });

  describe('on a port that is in use', () => {
    let taken: Server;
    let port: number;
    beforeAll(async () => {
      port = await freePort();
      taken = createServer();
      await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

    it('says so in one sentence and exits 1, before opening the database', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'vrclink-busy-'));
      const child = spawn(tsx, [main], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ...demoEnv, NODE_ENV: 'test', PORT: String(port), DATA_DIR: dataDir },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect({ code, stderr, stdout }).toEqual({
        code: 1,
        stderr: `${portInUseSentence(port)}\n`,
        stdout: '',
      });
      expect(stderr).toBe(
        `Port ${port} is in use; set PORT=… to use another one (for example PORT=${port + 1} npm start).\n`,
      );
      expect(existsSync(join(dataDir, 'pglite'))).toBe(false);
      rmSync(dataDir, { recursive: true, force: true });
    }, 60_000);
  });

  describe('when the embedded database stops by itself', () => {
    it('shuts down with exit code 1, and a restart opens the same data directory again', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'vrclink-stopped-'));
      const preload = pathToFileURL(join(repoRoot, 'apps/server/test/embedded-db-stop-preload.mjs')).href;
      const env = {
        ...demoEnv,
        DATA_DIR: dataDir,
        SIMULATOR_PORT: String(await freePort()),
        // Errors only: the shutdown's warnings (each job queue's failed fetch) would push the line out of output().
        LOG_LEVEL: 'error',
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${preload}`.trim(),
      };
      try {
        const first = await startServerProcess(env);
        const exited = new Promise<number | null>((resolve) => first.child.once('exit', resolve));
        // Ends the database's thread as a crash would (the preload), in tsx's process group.
        process.kill(-(first.child.pid ?? 0), 'SIGUSR2');
        expect(await exited).toBe(1);
        expect(first.output()).toContain(
          'The embedded database stopped: shutting down so that a restart opens it again (exit code 1)',
        );
        await first.stop();

        const second = await startServerProcess(env);
        try {
          // Ready once its roles are up (the database among them): migrations ran on the data directory.
          await waitUntilReady(second);
          const ready = await fetch(`${second.url}/api/health/ready`);
          expect(await ready.json()).toMatchObject({ status: 'ready' });
        } finally {
          await second.stop();
        }
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }, 240_000);
  });

  describe('on a full disk', () => {
    it('says so in one sentence and exits 1, without a stack trace', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'vrclink-full-'));
      const preload = pathToFileURL(join(repoRoot, 'apps/server/test/disk-full-preload.mjs')).href;
      const child = spawn(tsx, [main], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          ...demoEnv,
          NODE_ENV: 'test',
          LOG_LEVEL: 'silent',
          PORT: String(await freePort()),
          DATA_DIR: dataDir,
          NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${preload}`.trim(),
        },
      });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      rmSync(dataDir, { recursive: true, force: true });
      expect({ code, stderr }).toEqual({ code: 1, stderr: `${DISK_FULL_AT_START}\n` });
    }, 60_000);
  });
});
