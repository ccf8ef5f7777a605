import { Counter, Histogram } from './metrics-registry.js';

/**
 * The instruments the product records into, one set per process (module-level: every part of the process
 * records into the same ones). `/metrics` renders them with the gauges read at scrape (process-metrics.ts).
 * Names and labels are listed in docs/deploy.md ("Metrics"); the Grafana dashboard reads them.
 */
export const metrics = {
  httpRequests: new Counter(
    'vrclink_http_requests_total',
    'HTTP requests answered, by method, route pattern and status code.',
  ),
  httpDuration: new Histogram(
    'vrclink_http_request_duration_seconds',
    'Time to answer an HTTP request, by method and route pattern.',
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  ),
  rateLimitRefusals: new Counter(
    'vrclink_rate_limit_refusals_total',
    "Requests the product's own rate limiter refused (429), by bucket kind (user, api_key, address).",
  ),
  jobRuns: new Counter(
    'vrclink_job_runs_total',
    'Jobs run by this worker, by job and outcome (done, gave_up, failed: retried by the queue).',
  ),
  jobDuration: new Histogram(
    'vrclink_job_duration_seconds',
    'Time a job ran, by job.',
    [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
  ),
  platformCalls: new Counter(
    'vrclink_platform_calls_total',
    'Requests sent to a platform, by platform (discord, vrchat) and status class (2xx, 4xx, 429, 5xx, network).',
  ),
  platformRateLimits: new Counter(
    'vrclink_platform_rate_limits_total',
    'Rate limits met at a platform, by platform and kind (429: answered 429; pause: the product paused its calls).',
  ),
  syncDuration: new Histogram(
    'vrclink_sync_duration_seconds',
    "Time one server's sync took (observe, plan, apply), whatever its outcome.",
    [0.1, 0.5, 1, 5, 15, 60, 300, 900],
  ),
  syncChanges: new Counter(
    'vrclink_sync_changes_total',
    'Changes in the syncs run here, by kind (planned: in the plan; applied; failed; held: mass removals held back).',
  ),
  memberMirrorFill: new Histogram(
    'vrclink_member_mirror_fill_seconds',
    "Time to fill one server's member mirror from Discord, by mode (full: every member; linked: linked ones only).",
    [0.1, 0.5, 1, 5, 15, 60, 300],
  ),
  gatewayEvents: new Counter(
    'vrclink_gateway_events_total',
    'Discord gateway dispatches received by this process, by event type.',
  ),
};

/** The status class a platform answer is counted under. */
export const statusClass = (status: number): string =>
  status === 429 ? '429' : status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'network';
