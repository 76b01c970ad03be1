import { SCHEDULE_LIMITS, type FreeTogether } from '@studybuddy/shared/schedule';
import { CELL_MS, freeCells, offsetMinutes, type Interval } from './time-cells.ts';

/**
 * The matching signal: a student's free half hours as one UTC week (336 bits, the week starting `mondayMs`), so any
 * two students in any zones compare with one AND. A week away, not the next two: ranking wants the usual week.
 */
export function utcWeekBits(cells: string, tz: string, mondayMs: number, busy: readonly Interval[]): string {
  const free = freeCells(cells, tz, mondayMs, SCHEDULE_LIMITS.cellsPerWeek, busy);
  let out = '';
  for (const f of free) out += f ? '1' : '0';
  return out;
}

/** The longest run of half hours both bit strings have free, told in the viewer's zone; null when none. */
export function longestShared(a: string, b: string, tz: string, mondayMs: number): FreeTogether | null {
  let best = { start: -1, length: 0 };
  let total = 0;
  let run = 0;
  for (let i = 0; i <= SCHEDULE_LIMITS.cellsPerWeek; i++) {
    const both = i < SCHEDULE_LIMITS.cellsPerWeek && a[i] === '1' && b[i] === '1';
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
  const day = Math.floor(local / 86_400_000);
  const startMinute = Math.floor((local - day * 86_400_000) / 60_000);
  return {
    day: (((day + 3) % 7) + 7) % 7,
    startMinute,
    endMinute: startMinute + best.length * SCHEDULE_LIMITS.cellMinutes,
    cells: total,
  };
}
