// Reading a timestamp of a Task (createdAt, lastUpdatedAt) as the revision's ruling says: the instant it names,
// the precision it shows and whether it names a zone. Two readings, each chosen by a revision's schema format:
//   'rfc3339': RFC 3339 §5.6 date-time with a zone (RULINGS.md#timestamps-rfc3339: the 2025-11-25 page links it);
//   'iso8601': ISO 8601 date and time of day, extended or basic format, seconds and zone optional, fraction with
//              "." or "," (RULINGS.md#ext-timestamps-iso8601: the extension says "ISO 8601 timestamp", tasks.md:129-133).
// Comparing two readings (by instant, within the precision each shows) is suites/judge/timestamps.ts.

export type TimestampReading = 'rfc3339' | 'iso8601';

export interface Timestamp {
  /** The instant in ms since the epoch; a zone-less time is read as if it were UTC (`zone: false`). */
  ms: number;
  /** The unit of its last digit in ms (1000 for whole seconds, 60000 for hh:mm, 0.001 for microseconds). */
  precisionMs: number;
  /** Whether it names a zone (Z or an offset). */
  zone: boolean;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;
// ISO 8601 extended (2026-07-28T10:30:00.123+02:00) or basic (20260728T103000Z); reduced to hh:mm allowed.
const EXTENDED = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;
const BASIC = /^(\d{4})(\d{2})(\d{2})[Tt](\d{2})(\d{2})(?:(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([+-])(\d{2})(\d{2})?)?$/;

/** The reading of `s`, or undefined when it is no timestamp of that reading (fields range-checked, leap second allowed). */
export function readTimestamp(s: string, reading: TimestampReading): Timestamp | undefined {
  const m = reading === 'rfc3339' ? RFC3339.exec(s) : (EXTENDED.exec(s) ?? BASIC.exec(s));
  if (!m) return undefined;
  const [, y, mo, d, h, mi, sec, frac, z, sign, oh, om] = m;
  const daysInMonth = new Date(Date.UTC(+y!, +mo!, 0)).getUTCDate(); // day 0 of next month: handles leap years
  const ok = +mo! >= 1 && +mo! <= 12 && +d! >= 1 && +d! <= daysInMonth && +h! <= 23 && +mi! <= 59 && +(sec ?? 0) <= 60 && +(oh ?? 0) <= 23 && +(om ?? 0) <= 59;
  if (!ok) return undefined;
  const zone = z !== undefined || sign !== undefined;
  const offsetMs = sign ? (sign === '-' ? -1 : 1) * (+oh! * 60 + +(om ?? 0)) * 60_000 : 0;
  const fracMs = frac ? Number(`0.${frac}`) * 1000 : 0;
  const ms = Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, Math.min(+(sec ?? 0), 59)) + fracMs - offsetMs;
  const precisionMs = sec === undefined ? 60_000 : frac ? 1000 / 10 ** frac.length : 1000;
  return { ms, precisionMs, zone };
}
