// Timestamps judged by the instant they name, with the precision each side shows: one place for both
// revisions (get.created-at, get.last-updated-moves, 2026-get.* …). Pure functions; the reading (which
// grammar the revision's ruling accepts) is passed in as a value (schema/timestamp.ts).
import { readTimestamp, type Timestamp, type TimestampReading } from '../../schema/timestamp.ts';

export { readTimestamp, type Timestamp, type TimestampReading };

/**
 * The order of two timestamps: -1 when `a` is surely before `b`, 1 when surely after, 0 when they may name
 * the same instant, and undefined when no order can be told (unreadable, or one names a zone and the other
 * does not). Each stands for the instants its last digit may have come from, truncated or rounded:
 * "10:30:00" is any time from 10:29:59.5 to 10:30:01.
 */
export function orderOf(a: Timestamp | undefined, b: Timestamp | undefined): -1 | 0 | 1 | undefined {
  if (!a || !b || a.zone !== b.zone) return undefined;
  const span = (t: Timestamp) => [t.ms - t.precisionMs / 2, t.ms + t.precisionMs] as const;
  const [a0, a1] = span(a);
  const [b0, b1] = span(b);
  if (a1 <= b0) return -1;
  if (b1 <= a0) return 1;
  return 0;
}

/** `orderOf` on two strings, each read with `reading`. */
export function orderOfText(a: unknown, b: unknown, reading: TimestampReading): -1 | 0 | 1 | undefined {
  const read = (v: unknown) => (typeof v === 'string' ? readTimestamp(v, reading) : undefined);
  return orderOf(read(a), read(b));
}

/** True when two timestamps may name the same instant (a createdAt written with ms once and whole seconds later). */
export function maySameInstant(a: unknown, b: unknown, reading: TimestampReading): boolean {
  const o = orderOfText(a, b, reading);
  return o === 0 || o === undefined;
}

/** The instant a timestamp names in ms since the epoch (a zone-less one read as UTC, never as this machine's zone), NaN when unreadable. */
export function instantOf(v: unknown, reading: TimestampReading): number {
  return (typeof v === 'string' ? readTimestamp(v, reading)?.ms : undefined) ?? Number.NaN;
}
