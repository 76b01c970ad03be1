import { SCHEDULE_LIMITS, type FreeTogether } from '@studybuddy/shared/schedule';
import { CELL_MS, freeCells, nextCellStart, offsetMinutes, type Interval } from './time-cells.ts';

/**
 * The matching signal: a student's free half hours as UTC bits, so any two students in any zones compare with one
 * AND. Ranking uses the same window as Find a time (the next two weeks from the next half hour, imported busy
 * times and all), so each student's bits cover three UTC weeks from the Monday of the week they were computed in
 * (`RANK_CELLS`): the two weeks from any moment of that week lie inside. A week later the bits are moved by a week
 * (`alignBits`) until the daily refresh computes them again.
 */
const WEEK = SCHEDULE_LIMITS.cellsPerWeek;
const DAY_MS = 86_400_000;
export const RANK_WEEKS = 3;
export const RANK_CELLS = RANK_WEEKS * WEEK;
/** Find a time's window in cells (14 days). */
export const WINDOW_CELLS = (SCHEDULE_LIMITS.windowDays * DAY_MS) / CELL_MS;

/** 00:00 UTC of the Monday of the week holding `ms`. */
export function thisUtcMonday(ms: number): number {
  const day = Math.floor(ms / DAY_MS);
  const weekday = (((day + 3) % 7) + 7) % 7;
  return (day - weekday) * DAY_MS;
}

/** The student's free cells of `RANK_CELLS` half hours from `mondayMs`, as '0'/'1'. */
export function rankBits(cells: string, tz: string, mondayMs: number, busy: readonly Interval[]): string {
  const free = freeCells(cells, tz, mondayMs, RANK_CELLS, busy);
  let out = '';
  for (const f of free) out += f ? '1' : '0';
  return out;
}

/** Bits computed from the Monday `fromMs`, as seen from the Monday `mondayMs` (moved by whole weeks, 0 after). */
export function alignBits(bits: string, fromMs: number, mondayMs: number): string {
  const weeks = Math.round((mondayMs - fromMs) / (7 * DAY_MS));
  if (weeks <= 0) return bits;
  const cut = Math.min(bits.length, weeks * WEEK);
  return bits.slice(cut) + '0'.repeat(cut);
}

/** Only the cells of Find a time's window at `nowMs` (from the next half hour, 14 days) left in `bits`. */
export function windowOnly(bits: string, mondayMs: number, nowMs: number): string {
  const from = Math.max(0, Math.round((nextCellStart(nowMs) - mondayMs) / CELL_MS));
  const to = Math.min(bits.length, from + WINDOW_CELLS);
  return '0'.repeat(from) + bits.slice(from, to) + '0'.repeat(bits.length - to);
}

/** The longest run of half hours both bit strings have free, told in the viewer's zone; null when none. */
export function longestShared(a: string, b: string, tz: string, mondayMs: number): FreeTogether | null {
  let best = { start: -1, length: 0 };
  let total = 0;
  let run = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i <= n; i++) {
    const both = i < n && a[i] === '1' && b[i] === '1';
    if (both) {
      run++;
      total++;
    } else {
      if (run > best.length) best = { start: i - run, length: run };
      run = 0;
    }
  }
  if (best.start < 0) return null;
  const startMs = mondayMs + best.start * CELL_MS;
  const local = startMs + offsetMinutes(tz, startMs) * 60_000;
  const day = Math.floor(local / DAY_MS);
  const startMinute = Math.floor((local - day * DAY_MS) / 60_000);
  return {
    day: (((day + 3) % 7) + 7) % 7,
    startMinute,
    endMinute: startMinute + best.length * SCHEDULE_LIMITS.cellMinutes,
    cells: total,
  };
}
