import { SCHEDULE_LIMITS } from '@studybuddy/shared/schedule';

/**
 * Wall-clock cells of a student's week and UTC instants: every computation is done on UTC instants, each student's
 * cell looked up in their own zone at that instant, so a daylight-saving change moves their free time in UTC and
 * keeps it at the same wall-clock time.
 */

export const CELL_MS = SCHEDULE_LIMITS.cellMinutes * 60_000;
const DAY_MS = 86_400_000;
const SAMPLE_MS = 6 * 3_600_000;

/**
 * A zone's formatter, made once per zone: a cache of what a pure function gives, the same for every app (no app's
 * state), so it may live as long as the module.
 */
const formatter = cachedPerKey(
  (tz: string) =>
    new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    }),
);

function cachedPerKey<T>(make: (key: string) => T): (key: string) => T {
  const made = new Map<string, T>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) {
      value = make(key);
      made.set(key, value);
    }
    return value;
  };
}

/** The zone's offset from UTC at the instant, in minutes (Europe/Berlin in summer: 120). */
export function offsetMinutes(tz: string, instantMs: number): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(tz).formatToParts(new Date(instantMs))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return Math.round((asUtc - Math.floor(instantMs / 1000) * 1000) / 60_000);
}

/** The week cell (0 = Monday 00:00–00:30 local) an instant falls in, given the zone's offset then. */
export function cellAt(instantMs: number, offsetMin: number): number {
  const local = instantMs + offsetMin * 60_000;
  const day = Math.floor(local / DAY_MS);
  const weekday = (((day + 3) % 7) + 7) % 7; // 1970-01-01 was a Thursday
  const minute = Math.floor((local - day * DAY_MS) / 60_000);
  return weekday * SCHEDULE_LIMITS.cellsPerDay + Math.floor(minute / SCHEDULE_LIMITS.cellMinutes);
}

/**
 * The zone's offset at each of `count` instants start + i * CELL_MS. Sampled every 6 hours; only where two
 * samples differ (a daylight-saving change) is every cell between them asked.
 */
export function offsetsOver(tz: string, startMs: number, count: number): Int16Array {
  const out = new Int16Array(count);
  const perSample = SAMPLE_MS / CELL_MS;
  let prev = offsetMinutes(tz, startMs);
  for (let s = 0; s < count; s += perSample) {
    const end = Math.min(count, s + perSample);
    const next = offsetMinutes(tz, startMs + end * CELL_MS);
    if (next === prev) {
      out.fill(prev, s, end);
    } else {
      for (let i = s; i < end; i++) out[i] = offsetMinutes(tz, startMs + i * CELL_MS);
    }
    prev = next;
  }
  return out;
}

export interface Interval {
  startMs: number;
  endMs: number;
}

/**
 * 1 where the student is free in each cell of the window: their painted week in their zone, less every busy
 * interval touching the cell.
 */
export function freeCells(
  week: string,
  tz: string,
  windowStartMs: number,
  count: number,
  busy: readonly Interval[],
): Uint8Array {
  const out = new Uint8Array(count);
  const offsets = offsetsOver(tz, windowStartMs, count);
  for (let i = 0; i < count; i++) {
    out[i] = week.charCodeAt(cellAt(windowStartMs + i * CELL_MS, offsets[i]!)) === 49 ? 1 : 0;
  }
  const windowEnd = windowStartMs + count * CELL_MS;
  for (const b of busy) {
    if (b.endMs <= windowStartMs || b.startMs >= windowEnd) continue;
    const from = Math.max(0, Math.floor((b.startMs - windowStartMs) / CELL_MS));
    const to = Math.min(count, Math.ceil((b.endMs - windowStartMs) / CELL_MS));
    out.fill(0, from, to);
  }
  return out;
}

/** The next half-hour boundary at or after the instant (UTC; every zone's offset is a multiple of 15 min). */
export const nextCellStart = (ms: number) => Math.ceil(ms / CELL_MS) * CELL_MS;

/** Monday 00:00 UTC of the week after the instant's (the reference week of the matching signal). */
export function nextUtcMonday(ms: number): number {
  const day = Math.floor(ms / DAY_MS);
  const weekday = (((day + 3) % 7) + 7) % 7;
  return (day + (7 - weekday)) * DAY_MS;
}
