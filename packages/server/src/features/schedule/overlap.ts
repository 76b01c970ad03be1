import { SCHEDULE_LIMITS } from '@studybuddy/shared/schedule';
import { CELL_MS } from './time-cells.ts';

/** Free/busy overlap of several students over a window of cells: counts only, never whose. */

/** counts[i]: how many of the students are free in cell i. */
export function overlapCounts(free: readonly Uint8Array[], count: number): number[] {
  const counts = new Array<number>(count).fill(0);
  for (const f of free) for (let i = 0; i < count; i++) counts[i]! += f[i]!;
  return counts;
}

export interface Slot {
  startMs: number;
  endMs: number;
  freeCount: number;
  memberCount: number;
}

/**
 * The best `n` non-overlapping slots of `lengthCells`: most members free for the whole slot, then most free
 * member-half-hours inside it, then earliest. Slots when nobody is free are never proposed.
 */
export function bestSlots(
  free: readonly Uint8Array[],
  windowStartMs: number,
  count: number,
  lengthCells: number,
  n: number = SCHEDULE_LIMITS.proposals,
): Slot[] {
  const starts = count - lengthCells + 1;
  if (starts <= 0 || !free.length) return [];
  const whole = new Int32Array(starts);
  const partial = new Int32Array(starts);
  for (const f of free) {
    // Sliding window of this student's free cells.
    let run = 0;
    for (let i = 0; i < lengthCells; i++) run += f[i]!;
    for (let s = 0; s < starts; s++) {
      if (s > 0) run += f[s + lengthCells - 1]! - f[s - 1]!;
      partial[s]! += run;
      if (run === lengthCells) whole[s]! += 1;
    }
  }
  const order = Array.from({ length: starts }, (_, s) => s).filter((s) => whole[s]! > 0);
  order.sort((a, b) => whole[b]! - whole[a]! || partial[b]! - partial[a]! || a - b);
  const chosen: number[] = [];
  for (const s of order) {
    if (chosen.length >= n) break;
    if (chosen.every((c) => s + lengthCells <= c || c + lengthCells <= s)) chosen.push(s);
  }
  return chosen.map((s) => ({
    startMs: windowStartMs + s * CELL_MS,
    endMs: windowStartMs + (s + lengthCells) * CELL_MS,
    freeCount: whole[s]!,
    memberCount: free.length,
  }));
}
