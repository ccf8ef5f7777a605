import { seedGuildIds } from '@vrclink/simulator';
import { expect } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.js';
import { callSimulatorControl, LAX_SIMULATOR } from '../src/platforms/testing.js';
import { shardOfGuild } from '../src/wings/access/guilds/guild-snapshot.store.js';
import { createSession } from '../src/wings/identity/auth/session.service.js';
import { upsertUser } from '../src/wings/identity/auth/user.service.js';
import { type ServerProcess, sharedBackends, signedInHeaders } from './server-process.js';

const ADMIN = '1200000000000000001';
const SECRET_KEY = 'sharding-test-secret-key-000000000000';
const METRICS_TOKEN = 'sharding-test-metrics-token';

/**
 * The world of the sharding tests: the sharding simulator recommending one shard per 4 servers, 8 servers
 * (2 shards, both with servers; one session may hold at most 6, so an unsharded bot would be refused with
 * 4011), a scratch PostgreSQL database, a signed-in admin, and what the tests ask of them.
 */
export async function startShardingWorld(adminUrl: string) {
  const { sim, scratch, env } = await sharedBackends(adminUrl, SECRET_KEY, {
    ...LAX_SIMULATOR,
    discordGateway: { recommendedGuildsPerShard: 4, maxGuildsPerShard: 6 },
  });
  const simUrl = sim.sim.url;
  const control = (method: string, path: string, body?: unknown) =>
    callSimulatorControl(simUrl, method, path, body);
  const bulk = await control('POST', '/discord/bulk-guilds', { count: 6 });
  expect(bulk.status).toBe(201);
  const guildIds = [
    seedGuildIds.hangout.id,
    seedGuildIds.danceClub.id,
    ...(bulk.body as { guilds: { id: string }[] }).guilds.map((g) => g.id),
  ];
  const perShard = [0, 1].map((s) => guildIds.filter((id) => shardOfGuild(id, 2) === s).length);
  expect(perShard.every((n) => n > 0 && n <= 6)).toBe(true);

  const database: Database = await openDatabase({ url: scratch.url, onConnectionError: () => {} });
  await upsertUser(database.db, { id: ADMIN, username: 'demo_admin', globalName: null, avatar: null });
  const sessionToken = await createSession(database.db, ADMIN, 'web');
  const rows = async <T>(sql: string, params: unknown[] = []) =>
    (await database.executeSql(sql, params)).rows as T[];

  return {
    guildIds,
    control,
    rows,
    /** The environment of a bot process of this world. */
    env: { ...env, METRICS_TOKEN },
    /** The simulator's gateway sessions and how many IDENTIFYs it refused as too early. */
    async gateway() {
      return (await control('GET', '/discord/gateway')).body as {
        sessions: { shard: [number, number] }[];
        identifyRefusedTooSoon: number;
      };
    },
    /** The servers each shard of this process holds, from its /metrics. */
    async shardGuilds(proc: ServerProcess) {
      return [
        ...(await metrics(proc)).matchAll(/^vrclink_gateway_shard_guilds\{shard="(\d+)"\} (\d+)$/gm),
      ].map((m) => ({ shard: Number(m[1]), guilds: Number(m[2]) }));
    },
    /** This process's gateway state, from its /metrics. */
    async gatewayState(proc: ServerProcess) {
      return /^vrclink_gateway_state\{state="(\w+)"\} 1$/m.exec(await metrics(proc))?.[1];
    },
    /** Run now of a scheduled task of the process named `instance` (INSTANCE_NAME), through `proc`. */
    async runTask(proc: ServerProcess, instance: string, taskName: string) {
      const res = await fetch(`${proc.url}/api/admin/scheduled-tasks/run/vrclink/${instance}/${taskName}`, {
        method: 'POST',
        headers: signedInHeaders(SECRET_KEY, sessionToken),
      });
      expect(res.status).toBe(200);
    },
    /** Every job of `name` (waiting, done or archived) created since `since`. */
    jobs(name: string, since: Date) {
      return rows<{ state: string; data: { guildId?: string; reason?: string } }>(
        `select state, data from pgboss.job where name = $1 and created_on >= $2
         union all select state, data from pgboss.archive where name = $1 and created_on >= $2`,
        [name, since],
      );
    },
    /** Whether no job of `name` waits or runs. */
    async idle(name: string) {
      const waiting = await rows(
        `select 1 from pgboss.job where name = $1 and state in ('created', 'retry', 'active')`,
        [name],
      );
      return waiting.length === 0;
    },
    async close() {
      await database.close();
      await scratch.drop();
      await sim.sim.close();
    },
  };
}

async function metrics(proc: ServerProcess): Promise<string> {
  const res = await fetch(`${proc.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  return res.text();
}
