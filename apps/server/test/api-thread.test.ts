import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type ServerProcess, startServerProcess } from './server-process.js';

const TOKEN = 'metrics-token-0123456789';

/**
 * The single process on the embedded database (`npm start`'s shape) serves its API from a thread of its own
 * (api-thread/): from outside it must be one process as before — one readiness for all its roles, one set of
 * metrics, one shutdown.
 */
describe('the single process with its API in a thread of its own', () => {
  let proc: ServerProcess;
  let health: string;
  beforeAll(async () => {
    const healthPort = await freePort();
    health = `http://127.0.0.1:${healthPort}`;
    proc = await startServerProcess({
      DATABASE_URL: '',
      HEALTH_PORT: String(healthPort),
      METRICS_TOKEN: TOKEN,
      SIMULATOR_PORT: String(await freePort()),
      SIMULATOR_LIMITS: 'lax',
      LOG_LEVEL: 'info',
    });
  }, 120_000);
  afterAll(() => proc?.stop());

  it('listens from the API thread, whose log lines say so', () => {
    expect(proc.output()).toMatch(/"thread":"api".*"msg":"Server listening at http:\/\/127\.0\.0\.1:\d+"/);
  });

  it('is ready on its public address once the gateway and the job worker of the other thread are up', async () => {
    let body: unknown;
    for (;;) {
      const res = await fetch(`${proc.url}/api/health/ready`);
      body = await res.json();
      if (res.status === 200) break;
      expect(res.status).toBe(503);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(body).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', gateway: 'ok', jobs: 'ok' },
    });
  });

  it('counts its answers and its background work in one /metrics, on either listener', async () => {
    for (let i = 0; i < 3; i++) expect((await fetch(`${proc.url}/api/config`)).status).toBe(200);
    const auth = { authorization: `Bearer ${TOKEN}` };
    for (const text of [
      await (await fetch(`${proc.url}/metrics`, { headers: auth })).text(),
      await (await fetch(`${health}/metrics`, { headers: auth })).text(),
    ]) {
      // Answered in the API's thread…
      expect(text).toMatch(
        /^vrclink_http_requests_total\{method="GET",route="\/api\/config",status="200"\} 3$/m,
      );
      // …the gateway held in the main thread, whose state is the process's…
      expect(text).toMatch(/^vrclink_gateway_state\{state="ready"\} 1$/m);
      expect(text).toMatch(/^vrclink_gateway_state\{state="off"\} 0$/m);
      expect(text).toMatch(/^vrclink_gateway_events_total\{event="READY"\} 1$/m);
      // …and every role of the process, each family once.
      for (const role of ['api', 'bot', 'worker'])
        expect(text).toMatch(new RegExp(`^vrclink_process_roles\\{role="${role}"\\} 1$`, 'm'));
      expect(text.match(/^# TYPE vrclink_process_roles gauge$/gm)).toHaveLength(1);
    }
  });

  it('answers while the main thread is busy (background work no longer holds requests up)', async () => {
    // 100,000 members made at once by the demo's simulator, which runs on the main thread with the bot and the
    // jobs: for the second or so it takes, that thread runs nothing else (as during a big sync or mirror fill).
    const simulator = proc.output().match(/simulators at (http:\/\/127\.0\.0\.1:\d+)/)?.[1];
    expect(simulator).toBeDefined();
    let busy = true;
    const bulk = fetch(`${simulator}/control/discord/guilds/1300000000000000003/bulk-members`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 100_000 }),
    }).finally(() => {
      busy = false;
    });
    let answeredMeanwhile = 0;
    while (busy) {
      const res = await fetch(`${proc.url}/api/health`);
      if (res.ok && busy) answeredMeanwhile++;
    }
    expect((await bulk).status).toBe(201);
    // On one thread, none (or the one already on its way) could be answered until the bulk was done.
    expect(answeredMeanwhile).toBeGreaterThanOrEqual(5);
  });

  it('stops at SIGTERM as one process: the API drained, then the background roles, exit 0', async () => {
    const exited = new Promise<number | null>((resolve) => proc.child.once('exit', (code) => resolve(code)));
    proc.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(proc.output()).not.toMatch(/did not finish|API thread stopped/);
  });
});
