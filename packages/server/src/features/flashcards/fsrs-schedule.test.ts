import { describe, expect, it } from 'vitest';
import type { RatingName } from '@studybuddy/shared/flashcards';
import { createScheduler, type StoredState } from './fsrs-schedule.ts';

// The examples of ts-fsrs' own tests (packages/fsrs/__tests__/FSRS-6.test.ts), run through our stored state: every
// review goes from the stored shape to ts-fsrs and back, as the service does between two requests.
const w = [
  0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796, 1.4835, 0.0614, 0.2629, 1.6483,
  0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542,
];
const DAY = 24 * 60 * 60 * 1000;
const roundTrip = (s: StoredState): StoredState =>
  JSON.parse(JSON.stringify(s), (k, v) =>
    (k === 'due' || k === 'lastReview') && v ? new Date(v as string) : (v as unknown),
  );

describe('FSRS scheduling (ts-fsrs examples)', () => {
  it('gives the interval history of ts-fsrs FSRS-6 ivl_history example', () => {
    const scheduler = createScheduler({ w });
    const ratings: RatingName[] = [
      'good',
      'good',
      'good',
      'good',
      'good',
      'good',
      'again',
      'again',
      'good',
      'good',
      'good',
      'good',
      'good',
    ];
    let now = new Date(2022, 11, 29, 12, 30, 0, 0);
    let state: StoredState | null = null;
    const intervals: number[] = [];
    for (const rating of ratings) {
      state = roundTrip(scheduler.review(state, rating, now));
      intervals.push(state.scheduledDays);
      now = state.due;
    }
    expect(intervals).toEqual([0, 2, 11, 46, 163, 498, 0, 0, 2, 4, 7, 12, 21]);
  });

  it('reaches the memory state of the long-term example (fsrs-rs inference)', () => {
    const scheduler = createScheduler({ w, enable_short_term: false });
    const ratings: RatingName[] = ['again', 'good', 'good', 'good', 'good', 'good'];
    const gaps = [0, 0, 1, 3, 8, 21];
    let now = new Date(2022, 11, 29, 12, 30, 0, 0);
    let state: StoredState | null = null;
    ratings.forEach((rating, i) => {
      now = new Date(+now + gaps[i]! * DAY);
      state = roundTrip(scheduler.review(state, rating, now));
    });
    expect(state!.stability).toBeCloseTo(53.335106, 4);
    expect(state!.difficulty).toBeCloseTo(6.3574867, 4);
  });

  it('schedules a first review as the example does for each of Again, Hard, Good, Easy', () => {
    const scheduler = createScheduler({ w });
    const now = new Date(2022, 11, 29, 12, 30, 0, 0);
    const firsts = (['again', 'hard', 'good', 'easy'] as const).map((r) => scheduler.review(null, r, now));
    expect(firsts.map((s) => s.stability)).toEqual([0.212, 1.2931, 2.3065, 8.2956]);
    expect(firsts.map((s) => s.difficulty)).toEqual([6.4133, 5.11217071, 2.11810397, 1]);
    expect(firsts.map((s) => s.scheduledDays)).toEqual([0, 0, 0, 8]);
    expect(firsts.map((s) => s.state)).toEqual([1, 1, 1, 2]);
  });
});
