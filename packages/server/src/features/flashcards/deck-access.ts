import { randomUUID } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { FLASHCARD_LIMITS, type CardDto, type DeckSummary } from '@studybuddy/shared/flashcards';
import { MSG } from '@studybuddy/shared/messages';
import { withTransaction } from '../../db/transaction.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, forbidden, notFound } from '../../platform/errors.ts';
import { profiles } from '../profile/profiles.service.ts';
import * as repo from './flashcards.repository.ts';

const T = MSG.flashcards;

export const toCard = (c: repo.CardRow): CardDto => ({
  id: c.id,
  deckId: c.deckId,
  kind: c.kind as CardDto['kind'],
  front: c.front,
  back: c.back,
  page: c.page,
  pageLabel: c.pageLabel,
});

/** Which decks a student sees (their own and their groups'), how they are summed up, and how decks are written. */
export type DeckAccess = ReturnType<typeof createDeckAccess>;

/**
 * The decks a student may see or change: their own, and those shared with their groups (the groups feature's
 * conversation rule names the groups); their summaries, the per-student cap on decks and the per-deck cap on
 * cards, and new decks written with their cards in one transaction.
 */
export function createDeckAccess(ctx: AppContext, now: () => Date) {
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

  return {
    groupRule,
    groupIds,
    summaries,
    visibleDeck,

    async ownDeck(userId: string, deckId: string): Promise<repo.DeckRow> {
      const { deck } = await visibleDeck(userId, deckId);
      if (deck.ownerId !== userId) throw forbidden(T.ownerOnly);
      return deck;
    },

    async summaryOf(userId: string, deckId: string): Promise<DeckSummary> {
      return (await summaries(userId, [await visibleDeck(userId, deckId)]))[0]!;
    },

    async assertDeckRoom(userId: string): Promise<void> {
      if ((await repo.countOwnDecks(ctx.db, userId)) >= FLASHCARD_LIMITS.decksPerStudent) {
        throw new AppError(422, 'too_many_decks', T.tooManyDecks(FLASHCARD_LIMITS.decksPerStudent));
      }
    },

    /** Adds cards to the deck within its cap, all or none, under the deck's lock. */
    async addCards(deckId: string, cards: repo.NewCard[]): Promise<void> {
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
    },

    /** A new deck with its cards, written in one transaction; its id. */
    async storeDeck(
      deck: { ownerId: string; name: string; documentId: string | null },
      cards: repo.NewCard[],
    ): Promise<string> {
      const id = randomUUID();
      await withTransaction(ctx.db, async (tx) => {
        const created = await repo.insertDeck(tx, { id, ...deck });
        await repo.appendCards(
          tx,
          created,
          cards.map((c) => ({ ...c, id: randomUUID() })),
        );
      });
      return id;
    },
  };
}
