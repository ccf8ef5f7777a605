import { describe, expect, it } from 'vitest';
import { parseAuditDate } from './parseAuditDate.js';

describe('parseAuditDate', () => {
  it('reads a date as the start of that day in UTC', () => {
    expect(parseAuditDate('2026-11-23')).toEqual({ time: Date.UTC(2026, 10, 23), dateOnly: true });
    expect(parseAuditDate('0001-01-01')?.time).toBe(Date.parse('0001-01-01T00:00:00Z'));
  });

  it('reads a date-time in its zone', () => {
    const t = Date.UTC(2026, 10, 23, 17, 0, 0);
    for (const text of [
      '2026-11-23T17:00Z',
      '2026-11-23T17:00:00.000Z',
      '2026-11-23T18:00:00+01:00',
      '2026-11-23T12:30:00-0430',
    ])
      expect(parseAuditDate(text), text).toEqual({ time: t, dateOnly: false });
    expect(parseAuditDate('2026-11-23T17:00:00.123456Z')?.time).toBe(t + 123);
  });

  it('refuses what is not an ISO 8601 date, not a real day, or outside years 1 to 9999', () => {
    for (const text of [
      '1',
      '2026',
      '2026-1-5',
      '2026-02-29',
      '2026-11-23T17:00:00',
      '2026-11-23 17:00:00Z',
      '2026-11-23T24:00:00Z',
      '0000-12-31',
      '0001-01-01T00:30:00+01:00',
      '9999-12-31T23:00:00-02:00',
      '+010000-01-01',
      'soon',
      '',
    ])
      expect(parseAuditDate(text), text).toBeNull();
    expect(parseAuditDate('2024-02-29')).not.toBeNull();
  });
});
