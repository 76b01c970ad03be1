import { z } from 'zod';
import { FLASHCARDS_MSG } from './messages/flashcards.ts';

/** Flashcards, shared decks and practice quizzes (issue 28 points 2–4): limits, requests and answers. */

const T = FLASHCARDS_MSG.flashcards;

export const FLASHCARD_LIMITS = {
  deckMaxCards: 10_000,
  decksPerStudent: 200,
  nameMax: 120,
  frontMax: 1_000,
  backMax: 2_000,
  /** Cards one generation makes at most (the deck's own cap applies too). */
  generatedMax: 400,
  generationsPerDay: 40,
  quizzesPerDay: 100,
  quizMin: 1,
  quizMax: 20,
  /** Cards handed out per study call. */
  studyBatch: 50,
} as const;

export const RATINGS = ['again', 'hard', 'good', 'easy'] as const;
export type RatingName = (typeof RATINGS)[number];

export const CARD_KINDS = ['term', 'cloze', 'manual'] as const;
export type CardKind = (typeof CARD_KINDS)[number];

const id = z.string().min(1).max(64);
export const idParamSchema = z.object({ id });
export const shareParamSchema = z.object({ id, groupId: z.string().min(1).max(300) });

const name = z.string({ error: T.deckNameRequired }).trim().min(1, T.deckNameRequired).max(FLASHCARD_LIMITS.nameMax);
export const deckInputSchema = z.object({ name });
export type DeckInput = z.infer<typeof deckInputSchema>;

const page = z.number().int().min(1).max(100_000);
export const generateInputSchema = z
  .object({ documentId: id, fromPage: page.optional(), toPage: page.optional() })
  .refine((r) => !r.fromPage || !r.toPage || r.fromPage <= r.toPage, { message: T.pageRange, path: ['toPage'] });
export type GenerateInput = z.infer<typeof generateInputSchema>;

export const cardInputSchema = z.object({
  front: z.string({ error: T.frontRequired }).trim().min(1, T.frontRequired).max(FLASHCARD_LIMITS.frontMax),
  back: z.string({ error: T.backRequired }).trim().min(1, T.backRequired).max(FLASHCARD_LIMITS.backMax),
});
export type CardInput = z.infer<typeof cardInputSchema>;

export const reviewInputSchema = z.object({ rating: z.enum(RATINGS, { error: T.ratingRequired }) });
export type ReviewInput = z.infer<typeof reviewInputSchema>;

export const shareInputSchema = z.object({ groupId: z.string().min(1, T.pickGroup).max(300) });
export const settingsSchema = z.object({ dailyReminder: z.boolean() });
export type FlashcardSettings = z.infer<typeof settingsSchema>;

export const quizInputSchema = z.object({
  documentId: id,
  count: z.number().int().min(FLASHCARD_LIMITS.quizMin).max(FLASHCARD_LIMITS.quizMax).default(5),
});
export type QuizInput = z.infer<typeof quizInputSchema>;
export const quizAnswersSchema = z.object({ answers: z.array(z.string().max(500)).max(FLASHCARD_LIMITS.quizMax) });

// ── answers ──
export const cardSchema = z.object({
  id: z.string(),
  deckId: z.string(),
  kind: z.enum(CARD_KINDS),
  front: z.string(),
  back: z.string(),
  page: z.number().nullable(),
  pageLabel: z.string().nullable(),
});
export type CardDto = z.infer<typeof cardSchema>;

export const deckSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  documentId: z.string().nullable(),
  cardCount: z.number(),
  due: z.number(),
  own: z.boolean(),
  ownerName: z.string(),
  sharedWith: z.array(z.object({ groupId: z.string(), name: z.string() })),
  updatedAt: z.string(),
});
export type DeckSummary = z.infer<typeof deckSummarySchema>;

export const deckListSchema = z.object({ decks: z.array(deckSummarySchema), due: z.number() });
export type DeckList = z.infer<typeof deckListSchema>;

export const deckDetailSchema = deckSummarySchema.extend({ cards: z.array(cardSchema) });
export type DeckDetail = z.infer<typeof deckDetailSchema>;

export const generatedSchema = z.object({
  deck: deckSummarySchema,
  made: z.number(),
  /** Set when the time budget ended the reading early: the last page read. */
  stoppedAtPage: z.number().nullable(),
});
export type Generated = z.infer<typeof generatedSchema>;

export const studyCardSchema = cardSchema.extend({ state: z.enum(['new', 'learning', 'review', 'relearning']) });
export const studySchema = z.object({ cards: z.array(studyCardSchema), due: z.number() });
export type StudyBatch = z.infer<typeof studySchema>;

export const reviewedSchema = z.object({
  cardId: z.string(),
  due: z.string(),
  scheduledDays: z.number(),
  state: z.enum(['new', 'learning', 'review', 'relearning']),
  reps: z.number(),
  /** Cards due now across the student's decks, after this review. */
  dueTotal: z.number(),
});
export type Reviewed = z.infer<typeof reviewedSchema>;

export const dueSchema = z.object({ due: z.number() });

export const quizQuestionSchema = z.object({
  kind: z.enum(['choice', 'short']),
  prompt: z.string(),
  choices: z.array(z.string()),
  page: z.number(),
});
export const quizSchema = z.object({
  id: z.string(),
  documentId: z.string(),
  documentName: z.string(),
  questions: z.array(quizQuestionSchema),
});
export type Quiz = z.infer<typeof quizSchema>;

export const quizResultSchema = z.object({
  score: z.number(),
  total: z.number(),
  results: z.array(
    z.object({ correct: z.boolean(), given: z.string(), expected: z.string(), page: z.number(), prompt: z.string() }),
  ),
});
export type QuizResult = z.infer<typeof quizResultSchema>;
