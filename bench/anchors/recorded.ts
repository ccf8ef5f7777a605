/**
 * The anchors answer what the product answered: each path's status, headers (less the per-connection ones)
 * and body, recorded once from the running product, then served by the bare Node process (bare-server.mjs).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface RecordedAnswer {
  status: number;
  headers: Record<string, string | string[]>;
  /** base64 */
  body: string;
}

const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'set-cookie']);

/** GETs `url` with `headers` and records the answer (a 2xx, or it throws). */
export async function recordAnswer(
  url: string,
  headers: Record<string, string> = {},
): Promise<RecordedAnswer> {
  const res = await fetch(url, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${body.toString().slice(0, 200)}`);
  const recorded: RecordedAnswer['headers'] = {};
  res.headers.forEach((v, k) => {
    if (!PER_CONNECTION.has(k)) recorded[k] = v;
  });
  const cookies = res.headers.getSetCookie();
  if (cookies.length) recorded['set-cookie'] = cookies;
  return { status: res.status, headers: recorded, body: body.toString('base64') };
}

const bareScript = fileURLToPath(new URL('./bare-server.mjs', import.meta.url));

/** The bare Node anchor in its own process; answers its port and a stop function. */
export async function startBareServer(
  answers: Record<string, RecordedAnswer>,
): Promise<{ port: number; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'vrclink-bench-bare-'));
  const file = join(dir, 'answers.json');
  writeFileSync(file, JSON.stringify(answers));
  const child = spawn(process.execPath, [bareScript, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`the bare server exited with ${code}`)));
  });
  return {
    port,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
