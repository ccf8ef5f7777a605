import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import { appWithHangoutOwner, guildGroup } from '../../../../test/factories.js';
import { metrics } from '../../../observability/metrics.js';
import { runGuildSync } from './sync.service.js';
import { groupId, hangout } from './testing.js';

/** The value of one exposition line (`name{labels} value`), 0 when the series is not there yet. */
function seriesValue(lines: string[], prefix: string): number {
  const line = lines.find((l) => l.startsWith(prefix));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

// /metrics (docs/deploy.md, Metrics): a sync's duration and its changes by kind, the member mirror's fill time.
// The instruments are shared by every test of the worker, so the test reads what one sync adds.
describe('sync and member-mirror metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    ({ t } = await appWithHangoutOwner({ ...laxSimulator.forVrchatTestPacing }));
    // Nobody linked, Auto Remove on: the plan removes 13 of the group's members, all held (a mass removal).
    await guildGroup(t, {
      guildId: hangout.id,
      groupId,
      name: 'VRC Hangout Official',
      enabled: true,
      autoKick: true,
    });
  });
  afterAll(() => t?.close());

  it('counts one sync run, its planned and held changes, and the member mirror fill it needed', async () => {
    const before = [
      ...metrics.syncChanges.lines(),
      ...metrics.syncDuration.lines(),
      ...metrics.memberMirrorFill.lines(),
    ];
    const result = await runGuildSync(t.ctx, hangout.id);
    expect(result?.held).toBe(13);
    const after = [
      ...metrics.syncChanges.lines(),
      ...metrics.syncDuration.lines(),
      ...metrics.memberMirrorFill.lines(),
    ];
    const added = (prefix: string) => seriesValue(after, prefix) - seriesValue(before, prefix);
    expect(added('vrclink_sync_duration_seconds_count')).toBe(1);
    expect(added('vrclink_sync_changes_total{kind="held"}')).toBe(13);
    expect(added('vrclink_sync_changes_total{kind="planned"}')).toBe(result?.planned);
    expect(added('vrclink_sync_changes_total{kind="applied"}')).toBe(result?.applied);
    expect(after.some((l) => l.startsWith('vrclink_member_mirror_fill_seconds_count{mode='))).toBe(true);
  });
});
