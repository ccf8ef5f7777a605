/**
 * nginx as the second anchor of `npm run bench` (when installed: `command -v nginx`; Debian's package
 * `nginx-light` is enough): one worker process, keep-alive, each recorded answer written to a file and
 * served from there with the product's headers (nginx adds its own Date, Server and Content-Length).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedAnswer } from './recorded.js';

export function nginxAvailable(): boolean {
  try {
    execFileSync('nginx', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** nginx quotes: a header value never holds `"` here, but escape it anyway. */
const quoted = (value: string) => `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;

function locationBlock(path: string, file: string, answer: RecordedAnswer): string {
  const lines: string[] = [];
  let contentType = 'application/octet-stream';
  for (const [name, value] of Object.entries(answer.headers)) {
    if (name === 'content-type') contentType = String(value);
    else if (name !== 'content-length')
      for (const v of Array.isArray(value) ? value : [value])
        lines.push(`      add_header ${name} ${quoted(v)} always;`);
  }
  return [
    `    location = ${path} {`,
    '      types { }',
    `      default_type ${quoted(contentType)};`,
    '      etag off;',
    '      if_modified_since off;',
    '      add_header last-modified "";',
    ...lines,
    `      alias ${file};`,
    '    }',
  ].join('\n');
}

/** Starts nginx on `port` serving `answers`; stop() ends it and removes its folder. */
export async function startNginx(
  port: number,
  answers: Record<string, RecordedAnswer>,
): Promise<{ stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'vrclink-bench-nginx-'));
  mkdirSync(join(dir, 'files'));
  mkdirSync(join(dir, 'logs'));
  mkdirSync(join(dir, 'tmp'));
  const locations = Object.entries(answers).map(([path, answer], i) => {
    const file = join(dir, 'files', String(i));
    writeFileSync(file, Buffer.from(answer.body, 'base64'));
    return locationBlock(path, file, answer);
  });
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `daemon off;
master_process off;
worker_processes 1;
error_log ${join(dir, 'logs/error.log')} warn;
pid ${join(dir, 'nginx.pid')};
events { worker_connections 1024; }
http {
  access_log off;
  server_tokens off;
  keepalive_requests 1000000;
  client_body_temp_path ${dir}/tmp;
  proxy_temp_path ${dir}/tmp;
  fastcgi_temp_path ${dir}/tmp;
  uwsgi_temp_path ${dir}/tmp;
  scgi_temp_path ${dir}/tmp;
  server {
    listen 127.0.0.1:${port};
${locations.join('\n')}
  }
}
`,
  );
  const child: ChildProcess = spawn('nginx', ['-p', dir, '-c', conf], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const first = Object.keys(answers)[0]!;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
    const ok = await fetch(`http://127.0.0.1:${port}${first}`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 100) throw new Error(`nginx did not answer ${first}: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    async stop() {
      child.kill('SIGQUIT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
