import {
  FLASHCARD_LIMITS,
  type CardDto,
  type CardInput,
  type DeckDetail,
  type DeckList,
  type DeckSummary,
  type RatingName,
  type Reviewed,
  type StudyBatch,
} from '@studybuddy/shared/flashcards';
import { MSG } from '@studybuddy/shared/messages';
import { withTransaction } from '../../db/transaction.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, forbidden, notFound } from '../../platform/errors.ts';
import { createQuota } from '../../platform/quota.ts';
import type { CardLane } from './card-lane.ts';
import { createDeckAccess, toCard, type DeckAccess } from './deck-access.ts';
import { createDeckGeneration } from './deck-generation.ts';
import * as repo from './flashcards.repository.ts';
import { createScheduler, STATE_NAMES, type Scheduler } from './fsrs-schedule.ts';

const T = MSG.flashcards;

export interface FlashcardsDeps {
  ctx: AppContext;
  lane: CardLane;
  scheduler?: Scheduler;
  now?: () => Date;
}

/** Decks, cards, reviews and sharing of the flashcards feature (its routes call these). */
export function createFlashcardsService(deps: FlashcardsDeps) {
  const { ctx, lane } = deps;
  const scheduler = deps.scheduler ?? createScheduler();
  const now = deps.now ?? (() => new Date());
  const decks = createDeckAccess(ctx, now);
  const generation = createDeckGeneration(ctx, lane, createQuota(ctx.db, now), decks);
  return {
    groupIds: decks.groupIds,
    readableSource: generation.readableSource,
    make: generation.make,
    generate: generation.generate,
    ...deckOperations(ctx, decks, now),
    ...studyOperations(ctx, decks, scheduler, now),
  };
}

/** A student's decks and cards: listed, made, renamed, deleted, shared with groups and copied. */
function deckOperations(ctx: AppContext, decks: DeckAccess, now: () => Date) {
  const { groupIds, ownDeck, summaryOf, visibleDeck, assertDeckRoom } = decks;
  const detail = async (userId: string, deckId: string): Promise<DeckDetail> => {
    const summary = await summaryOf(userId, deckId);
    return { ...summary, cards: (await repo.listCards(ctx.db, deckId)).map(toCard) };
  };
  return {
    detail,

    async list(userId: string): Promise<DeckList> {
      const rows = await repo.visibleDecks(ctx.db, userId, groupIds(userId), now());
      const summaries = await decks.summaries(userId, rows);
      return { decks: summaries, due: summaries.reduce((n, d) => n + d.due, 0) };
    },

    async create(userId: string, name: string): Promise<DeckSummary> {
      await assertDeckRoom(userId);
      const deckId = await decks.storeDeck({ ownerId: userId, name, documentId: null }, []);
      return summaryOf(userId, deckId);
    },

    async rename(userId: string, deckId: string, name: string): Promise<DeckSummary> {
      await ownDeck(userId, deckId);
      await repo.renameDeck(ctx.db, deckId, name);
      return summaryOf(userId, deckId);
    },

    async remove(userId: string, deckId: string): Promise<void> {
      await ownDeck(userId, deckId);
      await repo.deleteDeck(ctx.db, deckId);
    },

    async addCard(userId: string, deckId: string, input: CardInput): Promise<DeckDetail> {
      await ownDeck(userId, deckId);
      await decks.addCards(deckId, [
        { kind: 'manual', front: input.front, back: input.back, page: null, pageLabel: null },
      ]);
      return detail(userId, deckId);
    },

    async editCard(userId: string, cardId: string, input: CardInput): Promise<CardDto> {
      const found = await repo.findCard(ctx.db, cardId);
      if (!found) throw notFound(T.cardNotFound);
      await ownDeck(userId, found.deck.id);
      const card = await repo.updateCard(ctx.db, cardId, input.front, input.back);
      if (!card) throw notFound(T.cardNotFound);
      return toCard(card);
    },

    async deleteCard(userId: string, cardId: string): Promise<void> {
      const found = await repo.findCard(ctx.db, cardId);
      if (!found) throw notFound(T.cardNotFound);
      await ownDeck(userId, found.deck.id);
      await repo.deleteCard(ctx.db, found.card);
    },

    async share(userId: string, deckId: string, groupId: string): Promise<DeckSummary> {
      await ownDeck(userId, deckId);
      const rule = decks.groupRule();
      try {
        if (!rule) throw forbidden(T.notYourGroup);
        await rule.authorize(userId, groupId);
      } catch (err) {
        if (err instanceof AppError && err.statusCode < 500) throw forbidden(T.notYourGroup);
        throw err;
      }
      if (!(await repo.share(ctx.db, deckId, groupId))) throw new AppError(409, 'already_shared', T.alreadyShared);
      return summaryOf(userId, deckId);
    },

    async unshare(userId: string, deckId: string, groupId: string): Promise<DeckSummary> {
      await ownDeck(userId, deckId);
      await repo.unshare(ctx.db, deckId, groupId);
      return summaryOf(userId, deckId);
    },

    /** A copy of a deck the student can see, as their own (their schedule of its cards starts afresh). */
    async copy(userId: string, deckId: string): Promise<DeckSummary> {
      const { deck } = await visibleDeck(userId, deckId);
      await assertDeckRoom(userId);
      const cards = await repo.listCards(ctx.db, deckId);
      const copyId = await decks.storeDeck(
        {
          ownerId: userId,
          name: T.copyName(deck.name).slice(0, FLASHCARD_LIMITS.nameMax),
          documentId: deck.documentId,
        },
        cards.map((c) => ({ kind: c.kind, front: c.front, back: c.back, page: c.page, pageLabel: c.pageLabel })),
      );
      return summaryOf(userId, copyId);
    },
  };
}

/** Studying: the due cards of a deck, reviews scheduled per student (FSRS), and the daily reminder setting. */
function studyOperations(ctx: AppContext, decks: DeckAccess, scheduler: Scheduler, now: () => Date) {
  const { groupIds, visibleDeck } = decks;
  return {
    async study(userId: string, deckId: string): Promise<StudyBatch> {
      const { due } = await visibleDeck(userId, deckId);
      const rows = await repo.dueCards(ctx.db, userId, deckId, now(), FLASHCARD_LIMITS.studyBatch);
      return {
        cards: rows.map((r) => ({ ...toCard(r.card), state: STATE_NAMES[r.state ?? 0] ?? 'new' })),
        due: Number(due),
      };
    },

    /** Schedules the card for this student only (FSRS), under a lock on their state of it. */
    async review(userId: string, cardId: string, rating: RatingName): Promise<Reviewed> {
      const at = now();
      const state = await withTransaction(ctx.db, async (tx) => {
        const card = await repo.findVisibleCard(tx, userId, groupIds(userId), cardId);
        if (!card) throw notFound(T.cardNotFound);
        const next = scheduler.review((await repo.progressOf(tx, userId, cardId)) ?? null, rating, at);
        await repo.saveProgress(tx, userId, cardId, next);
        return next;
      });
      return {
        cardId,
        due: state.due.toISOString(),
        scheduledDays: state.scheduledDays,
        state: STATE_NAMES[state.state] ?? 'review',
        reps: state.reps,
        dueTotal: await repo.dueTotal(ctx.db, userId, groupIds(userId), at),
      };
    },

    async due(userId: string): Promise<number> {
      return repo.dueTotal(ctx.db, userId, groupIds(userId), now());
    },

    async settings(userId: string) {
      return { dailyReminder: (await repo.settingsOf(ctx.db, userId))?.dailyReminder ?? true };
    },

    async saveSettings(userId: string, dailyReminder: boolean) {
      await repo.saveSettings(ctx.db, userId, dailyReminder);
      return { dailyReminder };
    },
  };
}

export type FlashcardsService = ReturnType<typeof createFlashcardsService>;
