import { FLASHCARD_LIMITS, type Generated, type GenerateInput } from '@studybuddy/shared/flashcards';
import { MSG } from '@studybuddy/shared/messages';
import type { AppContext } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { DAY_MS, type Quota } from '../../platform/quota.ts';
import { studySource, type StudySource } from '../documents/study-source.service.ts';
import type { MadeCard } from './card-maker.ts';
import type { CardLane } from './card-lane.ts';
import type { DeckAccess } from './deck-access.ts';

const T = MSG.flashcards;

/**
 * Decks made from a document, offline: the student's document read when it is ready, its pages turned into cards
 * on the card worker within its budget, under the daily generation quota (refunded when nothing could be made).
 */
export function createDeckGeneration(ctx: AppContext, lane: CardLane, quota: Quota, decks: DeckAccess) {
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

  /** Cards made from the source within the student's daily quota (refunded when none could be made). */
  async function madeWithinQuota(userId: string, source: StudySource) {
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
    return made;
  }

  return {
    readableSource,
    make,

    /** A deck from a document (or some of its pages); nothing is stored when no card could be made. */
    async generate(userId: string, input: GenerateInput): Promise<Generated> {
      const source = await readableSource(userId, input.documentId, { from: input.fromPage, to: input.toPage });
      await decks.assertDeckRoom(userId);
      const made = await madeWithinQuota(userId, source);
      const name = T.deckFromDocument(source.name).slice(0, FLASHCARD_LIMITS.nameMax);
      const deckId = await decks.storeDeck(
        { ownerId: userId, name, documentId: source.id },
        made.cards.map((c) => ({
          kind: c.kind,
          front: c.front.slice(0, FLASHCARD_LIMITS.frontMax),
          back: c.back.slice(0, FLASHCARD_LIMITS.backMax),
          page: c.page,
          pageLabel: c.pageLabel,
        })),
      );
      return {
        deck: await decks.summaryOf(userId, deckId),
        made: made.cards.length,
        stoppedAtPage: made.stoppedAtPage,
      };
    },
  };
}
