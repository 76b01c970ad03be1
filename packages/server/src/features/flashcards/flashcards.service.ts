import { randomUUID } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import {
  FLASHCARD_LIMITS,
  type CardDto,
  type CardInput,
  type DeckDetail,
  type DeckList,
  type DeckSummary,
  type Generated,
  type GenerateInput,
  type RatingName,
  type Reviewed,
  type StudyBatch,
} from '@studybuddy/shared/flashcards';
import { MSG } from '@studybuddy/shared/messages';
import { withTransaction } from '../../db/transaction.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, forbidden, notFound } from '../../platform/errors.ts';
import { createQuota, DAY_MS } from '../../platform/quota.ts';
import { studySource, type StudySource } from '../documents/study-source.service.ts';
import { profiles } from '../profile/profiles.service.ts';
import type { MadeCard } from './card-maker.ts';
import type { CardLane } from './card-lane.ts';
import * as repo from './flashcards.repository.ts';
import { createScheduler, STATE_NAMES, type Scheduler } from './fsrs-schedule.ts';

const T = MSG.flashcards;

export interface FlashcardsDeps {
  ctx: AppContext;
  lane: CardLane;
  scheduler?: Scheduler;
  now?: () => Date;
}

const toCard = (c: repo.CardRow): CardDto => ({
  id: c.id,
  deckId: c.deckId,
  kind: c.kind as CardDto['kind'],
  front: c.front,
  back: c.back,
  page: c.page,
  pageLabel: c.pageLabel,
});

/** Decks, cards, reviews and sharing of the flashcards feature (its routes call these). */
export function createFlashcardsService(deps: FlashcardsDeps) {
  const { ctx, lane } = deps;
  const scheduler = deps.scheduler ?? createScheduler();
  const now = deps.now ?? (() => new Date());
  const quota = createQuota(ctx.db, now);

  const groupRule = () => ctx.registry.conversationKinds.get('group');
  /** The groups feature's subquery of the student's groups (none when there is no groups feature). */
  const groupIds = (userId: string): SQL => repo.groupIdsOf(groupRule()?.sql.idsOf, userId);

  async function summaries(userId: string, rows: { deck: repo.DeckRow; due: number }[]): Promise<DeckSummary[]> {
    const shares = await repo.sharesOf(
      ctx.db,
      rows.filter((r) => r.deck.ownerId === userId).map((r) => r.deck.id),
    );
    const ownerNames = new Map<string, string>();
    for (const owner of new Set(rows.map((r) => r.deck.ownerId))) {
      ownerNames.set(owner, await profiles.name(ctx.db, owner));
    }
    const groupNames = new Map<string, string>();
    for (const g of new Set(shares.map((s) => s.groupId))) groupNames.set(g, (await groupRule()?.title(g)) ?? '');
    return rows.map(({ deck, due }) => ({
      id: deck.id,
      name: deck.name,
      documentId: deck.documentId,
      cardCount: deck.cardCount,
      due: Number(due),
      own: deck.ownerId === userId,
      ownerName: ownerNames.get(deck.ownerId) ?? '',
      sharedWith: shares
        .filter((s) => s.deckId === deck.id && groupNames.get(s.groupId))
        .map((s) => ({ groupId: s.groupId, name: groupNames.get(s.groupId)! })),
      updatedAt: deck.updatedAt.toISOString(),
    }));
  }

  async function visibleDeck(userId: string, deckId: string) {
    const row = await repo.visibleDeck(ctx.db, userId, groupIds(userId), deckId, now());
    if (!row) throw notFound(T.deckNotFound);
    return row;
  }

  async function ownDeck(userId: string, deckId: string): Promise<repo.DeckRow> {
    const { deck } = await visibleDeck(userId, deckId);
    if (deck.ownerId !== userId) throw forbidden(T.ownerOnly);
    return deck;
  }

  async function summaryOf(userId: string, deckId: string): Promise<DeckSummary> {
    return (await summaries(userId, [await visibleDeck(userId, deckId)]))[0]!;
  }

  async function assertDeckRoom(userId: string): Promise<void> {
    if ((await repo.countOwnDecks(ctx.db, userId)) >= FLASHCARD_LIMITS.decksPerStudent) {
      throw new AppError(422, 'too_many_decks', T.tooManyDecks(FLASHCARD_LIMITS.decksPerStudent));
    }
  }

  /** Adds cards to the deck within its cap, all or none, under the deck's lock. */
  async function addCards(deckId: string, cards: repo.NewCard[]): Promise<void> {
    await withTransaction(ctx.db, async (tx) => {
      const deck = await repo.lockDeck(tx, deckId);
      if (!deck) throw notFound(T.deckNotFound);
      if (deck.cardCount + cards.length > FLASHCARD_LIMITS.deckMaxCards) {
        throw new AppError(422, 'deck_full', T.deckFull(FLASHCARD_LIMITS.deckMaxCards));
      }
      await repo.appendCards(
        tx,
        deck,
        cards.map((c) => ({ ...c, id: randomUUID() })),
      );
    });
  }

  /** The student's document ready to read, or the refusal that says why not. */
  async function readableSource(userId: string, documentId: string, range: { from?: number; to?: number } = {}) {
    const source: StudySource | null = await studySource(ctx, userId, documentId, range);
    if (!source) throw notFound(T.documentNotFound);
    if (source.state === 'failed') {
      throw new AppError(422, 'document_failed', T.documentFailed(source.failure ?? MSG.courses.noTextFound));
    }
    if (source.state === 'processing') throw new AppError(409, 'not_ready', T.documentNotReady);
    if (!source.pages.some((p) => p.text.trim())) throw new AppError(422, 'no_text', T.documentNoText);
    return source;
  }

  /** Cards made from the pages on the worker, within its budget. */
  async function make(source: StudySource, max: number) {
    return lane.run(
      source.pages.map((p) => ({ page: p.page, label: p.label, text: p.text })),
      max,
    );
  }

  return {
    groupIds,
    readableSource,
    make,

    async list(userId: string): Promise<DeckList> {
      const rows = await repo.visibleDecks(ctx.db, userId, groupIds(userId), now());
      const decks = await summaries(userId, rows);
      return { decks, due: decks.reduce((n, d) => n + d.due, 0) };
    },

    async detail(userId: string, deckId: string): Promise<DeckDetail> {
      const summary = await summaryOf(userId, deckId);
      return { ...summary, cards: (await repo.listCards(ctx.db, deckId)).map(toCard) };
    },

    async create(userId: string, name: string): Promise<DeckSummary> {
      await assertDeckRoom(userId);
      const deck = await repo.insertDeck(ctx.db, { id: randomUUID(), ownerId: userId, name });
      return summaryOf(userId, deck.id);
    },

    /** A deck from a document (or some of its pages); nothing is stored when no card could be made. */
    async generate(userId: string, input: GenerateInput): Promise<Generated> {
      const source = await readableSource(userId, input.documentId, { from: input.fromPage, to: input.toPage });
      await assertDeckRoom(userId);
      const key = `flashcards-generate:${userId}`;
      await quota.consume(key, {
        what: T.quotaGenerations,
        limit: FLASHCARD_LIMITS.generationsPerDay,
        windowMs: DAY_MS,
        when: MSG.quota.tryTomorrow,
      });
      let made: { cards: MadeCard[]; stoppedAtPage: number | null };
      try {
        made = await make(source, FLASHCARD_LIMITS.generatedMax);
      } catch (err) {
        await quota.refund(key).catch(() => undefined);
        if (err instanceof AppError) throw err;
        ctx.log.error({ err }, 'making flashcards failed');
        throw new AppError(503, 'flashcards_failed', T.generateFailed);
      }
      if (!made.cards.length) {
        await quota.refund(key).catch(() => undefined);
        throw new AppError(422, 'no_cards', T.noCardsMade);
      }
      const deckId = randomUUID();
      await withTransaction(ctx.db, async (tx) => {
        const deck = await repo.insertDeck(tx, {
          id: deckId,
          ownerId: userId,
          name: T.deckFromDocument(source.name).slice(0, FLASHCARD_LIMITS.nameMax),
          documentId: source.id,
        });
        await repo.appendCards(
          tx,
          deck,
          made.cards.map((c) => ({
            id: randomUUID(),
            kind: c.kind,
            front: c.front.slice(0, FLASHCARD_LIMITS.frontMax),
            back: c.back.slice(0, FLASHCARD_LIMITS.backMax),
            page: c.page,
            pageLabel: c.pageLabel,
          })),
        );
      });
      return { deck: await summaryOf(userId, deckId), made: made.cards.length, stoppedAtPage: made.stoppedAtPage };
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
      await addCards(deckId, [{ kind: 'manual', front: input.front, back: input.back, page: null, pageLabel: null }]);
      return this.detail(userId, deckId);
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
      const rule = groupRule();
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
      const copyId = randomUUID();
      await withTransaction(ctx.db, async (tx) => {
        const created = await repo.insertDeck(tx, {
          id: copyId,
          ownerId: userId,
          name: T.copyName(deck.name).slice(0, FLASHCARD_LIMITS.nameMax),
          documentId: deck.documentId,
        });
        await repo.appendCards(
          tx,
          created,
          cards.map((c) => ({
            id: randomUUID(),
            kind: c.kind,
            front: c.front,
            back: c.back,
            page: c.page,
            pageLabel: c.pageLabel,
          })),
        );
      });
      return summaryOf(userId, copyId);
    },

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
