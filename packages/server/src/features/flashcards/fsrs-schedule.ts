import { createEmptyCard, fsrs, Rating, type Card, type FSRSParameters, type Grade, type State } from 'ts-fsrs';
import type { RatingName } from '@studybuddy/shared/flashcards';

/** A student's memory state of one card as it is stored (flashcard_progress, less the ids). */
export interface StoredState {
  due: Date;
  stability: number;
  difficulty: number;
  elapsedDays: number;
  scheduledDays: number;
  learningSteps: number;
  reps: number;
  lapses: number;
  state: number;
  lastReview: Date | null;
}

export const GRADES: Record<RatingName, Grade> = {
  again: Rating.Again,
  hard: Rating.Hard,
  good: Rating.Good,
  easy: Rating.Easy,
};

export const STATE_NAMES = ['new', 'learning', 'review', 'relearning'] as const;
export type StateName = (typeof STATE_NAMES)[number];

const toCard = (s: StoredState): Card => ({
  due: s.due,
  stability: s.stability,
  difficulty: s.difficulty,
  elapsed_days: s.elapsedDays,
  scheduled_days: s.scheduledDays,
  learning_steps: s.learningSteps,
  reps: s.reps,
  lapses: s.lapses,
  state: s.state as State,
  ...(s.lastReview ? { last_review: s.lastReview } : {}),
});

const fromCard = (c: Card): StoredState => ({
  due: c.due,
  stability: c.stability,
  difficulty: c.difficulty,
  elapsedDays: c.elapsed_days,
  scheduledDays: c.scheduled_days,
  learningSteps: c.learning_steps,
  reps: c.reps,
  lapses: c.lapses,
  state: c.state,
  lastReview: c.last_review ?? null,
});

/**
 * FSRS (ts-fsrs) over stored states: the next state of a card after a rating at `now`. Without fuzz, so the same
 * reviews give the same schedule (tests, and two devices of one student agree).
 */
export function createScheduler(params: Partial<FSRSParameters> = {}) {
  const f = fsrs({ enable_fuzz: false, ...params });
  return {
    /** The state of a card never reviewed, due at `now`. */
    initial: (now: Date): StoredState => fromCard(createEmptyCard(now)),
    review(state: StoredState | null, rating: RatingName, now: Date): StoredState {
      return fromCard(f.next(toCard(state ?? fromCard(createEmptyCard(now))), now, GRADES[rating]).card);
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
