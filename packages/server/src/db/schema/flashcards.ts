import { boolean, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { at, cascadeRef, createdAt } from './columns.ts';
import { users } from './auth.ts';

/**
 * Flashcards (issue 28 points 2–4): decks and their cards (one copy, the owner's, read by everyone the deck is
 * shared with), each student's FSRS state of each card they studied, the groups a deck is shared with, the
 * students' reminder setting, and practice quizzes with their answers.
 */
export const flashcardDecks = pgTable(
  'flashcard_decks',
  {
    id: text('id').primaryKey(),
    ownerId: cascadeRef('owner_id', () => users.id),
    name: text('name').notNull(),
    /** The document it was made from (no reference: the document may go, the deck stays). */
    documentId: text('document_id'),
    cardCount: integer('card_count').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [index('flashcard_decks_owner_idx').on(t.ownerId)],
);

export const flashcards = pgTable(
  'flashcards',
  {
    id: text('id').primaryKey(),
    deckId: cascadeRef('deck_id', () => flashcardDecks.id),
    /** term, cloze or manual */
    kind: text('kind').notNull(),
    front: text('front').notNull(),
    back: text('back').notNull(),
    page: integer('page'),
    pageLabel: text('page_label'),
    /** Order within the deck (generation order, then cards added). */
    position: integer('position').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('flashcards_deck_idx').on(t.deckId, t.position)],
);

/** A student's FSRS memory state of one card (no row: a new card, due now). */
export const flashcardProgress = pgTable(
  'flashcard_progress',
  {
    userId: cascadeRef('user_id', () => users.id),
    cardId: cascadeRef('card_id', () => flashcards.id),
    due: at('due').notNull(),
    stability: doublePrecision('stability').notNull(),
    difficulty: doublePrecision('difficulty').notNull(),
    elapsedDays: integer('elapsed_days').notNull(),
    scheduledDays: integer('scheduled_days').notNull(),
    learningSteps: integer('learning_steps').notNull(),
    reps: integer('reps').notNull(),
    lapses: integer('lapses').notNull(),
    /** ts-fsrs State: 0 new, 1 learning, 2 review, 3 relearning */
    state: integer('state').notNull(),
    lastReview: at('last_review'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.cardId] }), index('flashcard_progress_due_idx').on(t.userId, t.due)],
);

export const flashcardShares = pgTable(
  'flashcard_shares',
  {
    deckId: cascadeRef('deck_id', () => flashcardDecks.id),
    /** The groups feature's group (no reference: another owner's table; a gone group shares nothing). */
    groupId: text('group_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.deckId, t.groupId] }), index('flashcard_shares_group_idx').on(t.groupId)],
);

export const flashcardSettings = pgTable('flashcard_settings', {
  userId: cascadeRef('user_id', () => users.id).primaryKey(),
  dailyReminder: boolean('daily_reminder').notNull().default(true),
  /** The UTC day of the last reminder sent (at most one a day). */
  remindedOn: date('reminded_on', { mode: 'string' }),
});

export interface QuizItem {
  kind: 'choice' | 'short';
  prompt: string;
  choices: string[];
  answer: string;
  page: number;
}

export const flashcardQuizzes = pgTable(
  'flashcard_quizzes',
  {
    id: text('id').primaryKey(),
    userId: cascadeRef('user_id', () => users.id),
    documentId: text('document_id').notNull(),
    documentName: text('document_name').notNull(),
    questions: jsonb('questions').$type<QuizItem[]>().notNull(),
    score: integer('score'),
    createdAt: createdAt(),
  },
  (t) => [index('flashcard_quizzes_user_idx').on(t.userId)],
);
