import { timingSafeEqual } from 'node:crypto';

/**
 * Whether a scrape may read /metrics: with METRICS_TOKEN set, only with `Authorization: Bearer <token>`;
 * without it, only on HEALTH_PORT (the public listener answers 404, as for any unknown address).
 */
export function metricsAllowed(
  token: string | undefined,
  authorization: string | undefined,
  listener: 'public' | 'health',
): boolean {
  if (!token) return listener === 'health';
  const given = Buffer.from(/^Bearer (.+)$/i.exec(authorization ?? '')?.[1] ?? '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
