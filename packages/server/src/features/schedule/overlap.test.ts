import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bestSlots, overlapCounts } from './overlap.ts';
import { CELL_MS, freeCells, nextUtcMonday } from './time-cells.ts';
import { alignBits, longestShared, RANK_CELLS, rankBits, thisUtcMonday, windowOnly } from './utc-week.ts';

const ZONES = [
  'Europe/Berlin',
  'America/New_York',
  'Australia/Sydney',
  'Asia/Kolkata',
  'UTC',
  'America/Sao_Paulo',
  'Pacific/Chatham',
  'Asia/Kathmandu',
  'Europe/London',
];
const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** An independent reading of the wall clock: the platform's toLocaleString, not our offset arithmetic. */
function wallCell(tz: string, ms: number): number {
  const text = new Date(ms).toLocaleString('en-US', {
    timeZone: tz,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const [day, time] = text.split(' ') as [string, string];
  const [h, m] = time.split(':').map(Number) as [number, number];
  return DAYS.indexOf(day) * 48 + h * 2 + Math.floor(m / 30);
}

const week = (free: (cell: number) => boolean) => Array.from({ length: 336 }, (_, i) => (free(i) ? '1' : '0')).join('');

describe('overlap across time zones and daylight-saving changes', () => {
  it('counts, for every half hour, the students whose own wall clock is in a free cell (property)', () => {
    const student = fc.record({
      tz: fc.constantFrom(...ZONES),
      cells: fc.array(fc.boolean(), { minLength: 336, maxLength: 336 }).map((b) => b.map(Number).join('')),
    });
    // Window starts spread over 2026–2027, so many cross a DST change in one zone or another.
    const start = fc.integer({ min: Date.UTC(2026, 0, 1) / CELL_MS, max: Date.UTC(2027, 11, 1) / CELL_MS });
    fc.assert(
      fc.property(
        fc.array(student, { minLength: 1, maxLength: 4 }),
        start,
        fc.array(fc.nat(671), { minLength: 24, maxLength: 24 }),
        (students, startCell, probes) => {
          const startMs = startCell * CELL_MS;
          const free = students.map((s) => freeCells(s.cells, s.tz, startMs, 672, []));
          const counts = overlapCounts(free, 672);
          for (const i of probes) {
            const t = startMs + i * CELL_MS;
            const expected = students.filter((s) => s.cells[wallCell(s.tz, t)] === '1').length;
            expect(counts[i]).toBe(expected);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('keeps a free hour at its wall-clock time across the spring change (Berlin and New York)', () => {
    const mondayNine = week((c) => c === 18 || c === 19); // Monday 09:00–10:00 local
    const start = Date.UTC(2026, 2, 2); // Monday 2 March 2026, 00:00 UTC
    const berlin = freeCells(mondayNine, 'Europe/Berlin', start, 672 * 3, []);
    const newYork = freeCells(mondayNine, 'America/New_York', start, 672 * 3, []);
    const freeAt = (cells: Uint8Array) =>
      [...cells.keys()].filter((i) => cells[i]).map((i) => new Date(start + i * CELL_MS).toISOString());
    // New York springs forward on 8 March, Berlin on 29 March.
    expect(freeAt(newYork)).toEqual([
      '2026-03-02T14:00:00.000Z',
      '2026-03-02T14:30:00.000Z',
      '2026-03-09T13:00:00.000Z',
      '2026-03-09T13:30:00.000Z',
      '2026-03-16T13:00:00.000Z',
      '2026-03-16T13:30:00.000Z',
      '2026-03-23T13:00:00.000Z',
      '2026-03-23T13:30:00.000Z',
      '2026-03-30T13:00:00.000Z',
      '2026-03-30T13:30:00.000Z',
      '2026-04-06T13:00:00.000Z',
      '2026-04-06T13:30:00.000Z',
    ]);
    expect(freeAt(berlin).filter((_, i) => i % 2 === 0)).toEqual([
      '2026-03-02T08:00:00.000Z',
      '2026-03-09T08:00:00.000Z',
      '2026-03-16T08:00:00.000Z',
      '2026-03-23T08:00:00.000Z',
      '2026-03-30T07:00:00.000Z',
      '2026-04-06T07:00:00.000Z',
    ]);
    // Between the two changes Berlin 09:00 and New York 09:00 are 5 hours apart, before and after 6.
    const both = overlapCounts([berlin, newYork], 672 * 3);
    expect(Math.max(...both)).toBe(1);
  });

  it('takes busy intervals out of the free cells they touch', () => {
    const start = Date.UTC(2026, 5, 1); // a Monday
    const allFree = '1'.repeat(336);
    const cells = freeCells(allFree, 'UTC', start, 8, [{ startMs: start + 40 * 60_000, endMs: start + 70 * 60_000 }]);
    expect([...cells]).toEqual([1, 0, 0, 1, 1, 1, 1, 1]);
  });
});

describe('best slots', () => {
  it('proposes the three best non-overlapping slots, most members free for the whole length first', () => {
    const start = Date.UTC(2026, 5, 1);
    const a = new Uint8Array(48).fill(0);
    const b = new Uint8Array(48).fill(0);
    a.fill(1, 4, 10);
    b.fill(1, 6, 12);
    a.fill(1, 20, 22);
    b.fill(1, 30, 32);
    const slots = bestSlots([a, b], start, 48, 2);
    expect(slots[0]).toMatchObject({ startMs: start + 6 * CELL_MS, freeCount: 2, memberCount: 2 });
    expect(slots[1]).toMatchObject({ startMs: start + 8 * CELL_MS, freeCount: 2 });
    expect(slots[2]!.freeCount).toBe(1);
    expect(bestSlots([new Uint8Array(48)], start, 48, 2)).toEqual([]);
  });

  it('tells the longest shared block in the viewer zone ("Tue 14:00–16:00")', () => {
    const monday = nextUtcMonday(Date.UTC(2026, 5, 3));
    const tueTwoToFour = week((c) => c >= 48 + 28 && c < 48 + 32);
    const mine = rankBits(tueTwoToFour, 'Europe/Berlin', monday, []);
    const theirs = rankBits('1'.repeat(336), 'America/New_York', monday, []);
    expect(longestShared(mine, theirs, 'Europe/Berlin', monday)).toEqual({
      day: 1,
      startMinute: 14 * 60,
      endMinute: 16 * 60,
      cells: 12,
    });
  });

  it("ranks over Find a time's window: the next two weeks from the next half hour, busy times included", () => {
    // Wednesday 2026-06-03 10:10 UTC: the window runs to Wednesday 2026-06-17 10:30.
    const now = Date.UTC(2026, 5, 3, 10, 10);
    const monday = thisUtcMonday(now);
    expect(new Date(monday).toISOString()).toBe('2026-06-01T00:00:00.000Z');
    const tueTwoToFour = week((c) => c >= 48 + 28 && c < 48 + 32);
    // This week's Tuesday is past; next Tuesday is busy (an imported lecture); the one after (16 June) is in the window.
    const nextTuesday = { startMs: Date.UTC(2026, 5, 9, 12), endMs: Date.UTC(2026, 5, 9, 16) };
    const mine = rankBits(tueTwoToFour, 'UTC', monday, [nextTuesday]);
    expect(mine).toHaveLength(RANK_CELLS);
    const window = windowOnly(mine, monday, now);
    expect(window.indexOf('1')).toBe(15 * 48 + 28);
    expect(window.split('').filter((c) => c === '1')).toHaveLength(4);
    const other = rankBits(tueTwoToFour, 'UTC', monday, []);
    expect(longestShared(window, other, 'UTC', monday)).toEqual({ day: 1, startMinute: 840, endMinute: 960, cells: 4 });
    // A week later, bits computed this week are moved on by a week until the daily refresh.
    const later = alignBits(mine, monday, monday + 7 * 86_400_000);
    expect(later.slice(0, 336)).toBe(mine.slice(336, 672));
    expect(later.slice(672)).toBe('0'.repeat(336));
  });
});
