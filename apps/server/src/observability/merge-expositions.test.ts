import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeExpositions } from './merge-expositions.js';
import { Counter, Gauge, Histogram, Registry } from './metrics-registry.js';

type Observation = { route: string; seconds: number };

/** One thread's registry: requests counted and timed by route, and a gauge of its own state. */
function threadRegistry(observations: Observation[], state: number) {
  const registry = new Registry();
  const requests = registry.register(new Counter('t_requests_total', 'Requests.'));
  const duration = registry.register(new Histogram('t_duration_seconds', 'Time.', [0.1, 1]));
  const gauge = registry.register(new Gauge('t_state', 'State.'));
  for (const o of observations) {
    requests.inc({ route: o.route });
    duration.observe({ route: o.route }, o.seconds);
  }
  gauge.set({}, state);
  return registry;
}

// Binary fractions: a sum is the same in any order.
const observations = fc.array(
  fc.record({ route: fc.constantFrom('/a', '/b', '/c"d'), seconds: fc.constantFrom(0.0625, 0.5, 4) }),
  { maxLength: 20 },
);

describe('mergeExpositions', () => {
  it('adds up counters and histograms and keeps the first thread’s gauge', async () => {
    await fc.assert(
      fc.asyncProperty(observations, observations, async (main, api) => {
        const merged = mergeExpositions([
          await threadRegistry(main, 1).render(),
          await threadRegistry(api, 2).render(),
        ]);
        // One registry that saw everything renders the same families and sums, the first gauge's value.
        const whole = await threadRegistry([...main, ...api], 1).render();
        const sorted = (text: string) => text.trim().split('\n').sort();
        expect(sorted(merged)).toEqual(sorted(whole));
        expect(merged.match(/^# TYPE t_requests_total counter$/gm)).toHaveLength(1);
      }),
    );
  });

  it('keeps a family only one thread has, and is the identity for one text', async () => {
    const only = await threadRegistry([{ route: '/a', seconds: 0.0625 }], 3).render();
    expect(mergeExpositions([only])).toBe(only);
    const other = new Registry();
    other.register(new Counter('t_jobs_total', 'Jobs.')).inc({ job: 'sync' }, 4);
    const merged = mergeExpositions([only, await other.render()]);
    expect(merged).toContain(
      '# HELP t_jobs_total Jobs.\n# TYPE t_jobs_total counter\nt_jobs_total{job="sync"} 4\n',
    );
    expect(merged).toContain('t_state 3\n');
  });
});
