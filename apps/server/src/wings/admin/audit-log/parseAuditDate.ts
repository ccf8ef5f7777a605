/** The instants a filter may name: what PostgreSQL's timestamp accepts written as an ISO 8601 date (years 1–9999). */
export const EARLIEST_AUDIT_TIME = Date.parse('0001-01-01T00:00:00.000Z');
export const LATEST_AUDIT_TIME = Date.parse('9999-12-31T23:59:59.999Z');

export const AUDIT_DATE_RULE =
  'must be an ISO 8601 date from 0001-01-01 to 9999-12-31, e.g. 2026-11-23 or 2026-11-23T18:00:00Z';

const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/;
const isoDateTime =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+-])(\d{2}):?(\d{2}))$/i;

/** Milliseconds of a real calendar day (no 2026-02-30), or null. */
function dayStart(year: number, month: number, day: number): number | null {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  const real = d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
  return real ? d.getTime() : null;
}

/**
 * An audit-log date filter: a date (`2026-11-23`, the start of that day in UTC) or a date-time with its zone
 * (`2026-11-23T18:00:00Z`, `…+02:00`). Null for anything else or an instant outside years 1–9999 (JavaScript
 * would read `1` as 2001; PostgreSQL has no year 0 and no 5-digit years).
 */
export function parseAuditDate(text: string): { time: number; dateOnly: boolean } | null {
  const date = isoDate.exec(text);
  const dateTime = date ? null : isoDateTime.exec(text);
  const parts = date ?? dateTime;
  if (!parts) return null;
  const start = dayStart(Number(parts[1]), Number(parts[2]), Number(parts[3]));
  if (start === null) return null;
  let time = start;
  if (dateTime) {
    const [hours, minutes, seconds] = [4, 5, 6].map((i) => Number(dateTime[i] ?? 0)) as [
      number,
      number,
      number,
    ];
    const [zoneHours, zoneMinutes] = [Number(dateTime[10] ?? 0), Number(dateTime[11] ?? 0)];
    if (hours > 23 || minutes > 59 || seconds > 59 || zoneHours > 23 || zoneMinutes > 59) return null;
    const millis = Number((dateTime[7] ?? '0').padEnd(3, '0').slice(0, 3));
    const offset = (dateTime[9] === '-' ? -1 : 1) * (zoneHours * 60 + zoneMinutes) * 60_000;
    time += ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis - (dateTime[8] ? 0 : offset);
  }
  if (time < EARLIEST_AUDIT_TIME || time > LATEST_AUDIT_TIME) return null;
  return { time, dateOnly: Boolean(date) };
}
