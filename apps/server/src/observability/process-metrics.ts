import type { AppContext } from '../kernel/context.js';
import { metrics } from './metrics.js';
import { Gauge, Registry } from './metrics-registry.js';

const GATEWAY_STATES = ['off', 'standby', 'connecting', 'ready', 'disconnected'] as const;

/** Waiting, running and retained failed jobs by queue, and the age of the oldest waiting one (pg-boss's table). */
const QUEUE_SQL = `
select name, state, count(*)::int as n,
       coalesce(extract(epoch from now() - min(created_on)), 0)::float8 as oldest
from pgboss.job
where state in ('created', 'retry', 'active', 'failed')
group by name, state`;

const registries = new WeakMap<AppContext, Registry>();

/** This process's registry: the shared instruments and the gauges read from the context at each scrape. */
export function processMetrics(ctx: AppContext): Registry {
  let registry = registries.get(ctx);
  if (registry) return registry;
  registry = new Registry();
  for (const instrument of Object.values(metrics)) registry.register(instrument);
  let queue: Promise<Array<{ name: string; state: string; n: number; oldest: number }>> | undefined;
  // One query feeds both queue gauges within one scrape.
  const queueRows = () => {
    queue ??= ctx.database
      .executeSql(QUEUE_SQL)
      .then((r) => r.rows as Array<{ name: string; state: string; n: number; oldest: number }>)
      .finally(() => setTimeout(() => (queue = undefined), 0).unref());
    return queue;
  };
  registry.register(
    new Gauge(
      'vrclink_job_queue_jobs',
      'Jobs in the queue by job and state (created, retry, active, failed).',
      async () => (await queueRows()).map((r) => ({ labels: { job: r.name, state: r.state }, value: r.n })),
    ),
  );
  registry.register(
    new Gauge('vrclink_job_queue_oldest_seconds', 'Age of the oldest job waiting to run, by job.', async () =>
      (await queueRows())
        .filter((r) => r.state === 'created' || r.state === 'retry')
        .map((r) => ({ labels: { job: r.name }, value: r.oldest })),
    ),
  );
  registry.register(
    new Gauge(
      'vrclink_gateway_state',
      "This process's Discord gateway state: 1 for the current one (off where the process has no bot role).",
      async () => {
        const current = ctx.platforms?.gatewayState() ?? 'off';
        return GATEWAY_STATES.map((state) => ({ labels: { state }, value: state === current ? 1 : 0 }));
      },
    ),
  );
  registry.register(
    new Gauge(
      'vrclink_gateway_shard_guilds',
      'Servers on each gateway shard this process holds (none where it holds no shard).',
      async () => {
        const client = ctx.platforms?.bot.client;
        if (!client?.isReady()) return [];
        return [...client.ws.shards.keys()].map((shard) => ({
          labels: { shard: String(shard) },
          value: client.guilds.cache.filter((g) => g.shardId === shard).size,
        }));
      },
    ),
  );
  registry.register(
    new Gauge('vrclink_process_roles', 'The roles this process runs (1 each).', async () =>
      [...ctx.config.process.roles].map((role) => ({ labels: { role }, value: 1 })),
    ),
  );
  registry.register(
    new Gauge('process_resident_memory_bytes', 'Resident memory of this process.', async () => [
      { labels: {}, value: process.memoryUsage.rss() },
    ]),
  );
  registry.register(
    new Gauge('process_uptime_seconds', 'Seconds since this process started.', async () => [
      { labels: {}, value: Math.round(process.uptime()) },
    ]),
  );
  registries.set(ctx, registry);
  return registry;
}

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
