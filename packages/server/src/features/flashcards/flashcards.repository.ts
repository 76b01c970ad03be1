import { and, asc, count, eq, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { deleteIfPresent, insertIfAbsent, rows } from '../../db/rows.ts';
import {
  flashcardDecks,
  flashcardProgress,
  flashcardQuizzes,
  flashcards,
  flashcardSettings,
  flashcardShares,
  type QuizItem,
} from '../../db/schema/flashcards.ts';
import type { StoredState } from './fsrs-schedule.ts';

/** SQL of the flashcards feature. `groupIds` is the groups feature's subquery of one student's groups. */

export type DeckRow = typeof flashcardDecks.$inferSelect;
export type CardRow = typeof flashcards.$inferSelect;
export type NewCard = Omit<typeof flashcards.$inferInsert, 'deckId' | 'position' | 'id'>;

const INSERT_CHUNK = 500;

/** A subquery of no groups (no groups feature registered). */
export const noGroups = (): SQL => sql`select null where false`;

/** The groups feature's subquery of the student's groups, from its `idsOf` piece. */
export const groupIdsOf = (idsOf: ((userId: SQL) => SQL) | undefined, userId: string): SQL =>
  idsOf ? idsOf(sql`${userId}`) : noGroups();

/** True when the student owns the deck or it is shared with one of their groups. */
const visible = (userId: string, groupIds: SQL) =>
  or(
    eq(flashcardDecks.ownerId, userId),
    sql`exists (select 1 from ${flashcardShares} fs where fs.deck_id = ${flashcardDecks.id} and fs.group_id in (${groupIds}))`,
  )!;

/** Cards of the deck due for the student at `now` (never reviewed, or due). */
const dueIn = (deckId: SQL, userId: string, now: Date) =>
  sql<number>`(select count(*)::int from ${flashcards} c left join ${flashcardProgress} p
    on p.card_id = c.id and p.user_id = ${userId}
    where c.deck_id = ${deckId} and (p.due is null or p.due <= ${now.toISOString()}))`;

export async function insertDeck(db: Db, row: typeof flashcardDecks.$inferInsert): Promise<DeckRow> {
  const [deck] = await db.insert(flashcardDecks).values(row).returning();
  return deck!;
}

export async function countOwnDecks(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(flashcardDecks).where(eq(flashcardDecks.ownerId, userId));
  return row?.n ?? 0;
}

export async function visibleDecks(db: Db, userId: string, groupIds: SQL, now: Date) {
  return db
    .select({ deck: flashcardDecks, due: dueIn(sql`${flashcardDecks.id}`, userId, now) })
    .from(flashcardDecks)
    .where(visible(userId, groupIds))
    .orderBy(asc(flashcardDecks.createdAt), asc(flashcardDecks.id));
}

export async function visibleDeck(db: Db, userId: string, groupIds: SQL, deckId: string, now: Date) {
  const [row] = await db
    .select({ deck: flashcardDecks, due: dueIn(sql`${flashcardDecks.id}`, userId, now) })
    .from(flashcardDecks)
    .where(and(eq(flashcardDecks.id, deckId), visible(userId, groupIds)));
  return row;
}

/** Cards due for the student across every deck they can see. */
export async function dueTotal(db: Db, userId: string, groupIds: SQL, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${dueIn(sql`${flashcardDecks.id}`, userId, now)}), 0)::int` })
    .from(flashcardDecks)
    .where(visible(userId, groupIds));
  return Number(row?.n ?? 0);
}

export async function sharesOf(db: Db, deckIds: string[]) {
  if (!deckIds.length) return [];
  return db
    .select({ deckId: flashcardShares.deckId, groupId: flashcardShares.groupId })
    .from(flashcardShares)
    .where(inArray(flashcardShares.deckId, deckIds))
    .orderBy(asc(flashcardShares.createdAt));
}

export async function listCards(db: Db, deckId: string): Promise<CardRow[]> {
  return db.select().from(flashcards).where(eq(flashcards.deckId, deckId)).orderBy(asc(flashcards.position));
}

/** The deck's row, locked until the transaction ends (adding cards checks the deck's cap under it). */
export async function lockDeck(db: Db, deckId: string): Promise<DeckRow | undefined> {
  const [row] = await db.select().from(flashcardDecks).where(eq(flashcardDecks.id, deckId)).for('update');
  return row;
}

/** Appends cards after the deck's last one and counts them on the deck. */
export async function appendCards(db: Db, deck: DeckRow, cards: (NewCard & { id: string })[]): Promise<void> {
  const last = await db
    .select({ max: sql<number>`coalesce(max(${flashcards.position}), 0)::int` })
    .from(flashcards)
    .where(eq(flashcards.deckId, deck.id));
  const start = Number(last[0]?.max ?? 0) + 1;
  for (let i = 0; i < cards.length; i += INSERT_CHUNK) {
    await db
      .insert(flashcards)
      .values(cards.slice(i, i + INSERT_CHUNK).map((c, j) => ({ ...c, deckId: deck.id, position: start + i + j })));
  }
  await db
    .update(flashcardDecks)
    .set({ cardCount: sql`${flashcardDecks.cardCount} + ${cards.length}`, updatedAt: new Date() })
    .where(eq(flashcardDecks.id, deck.id));
}

/** A card with its deck. */
export async function findCard(db: Db, cardId: string) {
  const [row] = await db
    .select({ card: flashcards, deck: flashcardDecks })
    .from(flashcards)
    .innerJoin(flashcardDecks, eq(flashcardDecks.id, flashcards.deckId))
    .where(eq(flashcards.id, cardId));
  return row;
}

/** A card the student may study: in a deck they own or one shared with their groups. */
export async function findVisibleCard(db: Db, userId: string, groupIds: SQL, cardId: string) {
  const [row] = await db
    .select({ card: flashcards })
    .from(flashcards)
    .innerJoin(flashcardDecks, eq(flashcardDecks.id, flashcards.deckId))
    .where(and(eq(flashcards.id, cardId), visible(userId, groupIds)));
  return row?.card;
}

export async function updateCard(db: Db, cardId: string, front: string, back: string): Promise<CardRow | undefined> {
  const [row] = await db.update(flashcards).set({ front, back }).where(eq(flashcards.id, cardId)).returning();
  return row;
}

export async function deleteCard(db: Db, card: CardRow): Promise<void> {
  const gone = await db.delete(flashcards).where(eq(flashcards.id, card.id)).returning({ id: flashcards.id });
  if (!gone.length) return;
  await db
    .update(flashcardDecks)
    .set({ cardCount: sql`${flashcardDecks.cardCount} - 1`, updatedAt: new Date() })
    .where(eq(flashcardDecks.id, card.deckId));
}

export async function renameDeck(db: Db, deckId: string, name: string): Promise<void> {
  await db.update(flashcardDecks).set({ name, updatedAt: new Date() }).where(eq(flashcardDecks.id, deckId));
}

export async function deleteDeck(db: Db, deckId: string): Promise<void> {
  await db.delete(flashcardDecks).where(eq(flashcardDecks.id, deckId));
}

/** Shares the deck with the group; false when it already was. */
export async function share(db: Db, deckId: string, groupId: string): Promise<boolean> {
  return insertIfAbsent(db, flashcardShares, { deckId, groupId });
}

export async function unshare(db: Db, deckId: string, groupId: string): Promise<boolean> {
  return deleteIfPresent(
    db,
    flashcardShares,
    and(eq(flashcardShares.deckId, deckId), eq(flashcardShares.groupId, groupId)),
  );
}

/** Due cards of the deck for the student, reviews first (most overdue first), then new cards in deck order. */
export async function dueCards(db: Db, userId: string, deckId: string, now: Date, limit: number) {
  return db
    .select({ card: flashcards, state: flashcardProgress.state })
    .from(flashcards)
    .leftJoin(flashcardProgress, and(eq(flashcardProgress.cardId, flashcards.id), eq(flashcardProgress.userId, userId)))
    .where(and(eq(flashcards.deckId, deckId), or(isNull(flashcardProgress.due), lte(flashcardProgress.due, now))))
    .orderBy(sql`${flashcardProgress.due} asc nulls last`, asc(flashcards.position))
    .limit(limit);
}

export async function progressOf(db: Db, userId: string, cardId: string): Promise<StoredState | undefined> {
  const [row] = await db
    .select()
    .from(flashcardProgress)
    .where(and(eq(flashcardProgress.userId, userId), eq(flashcardProgress.cardId, cardId)))
    .for('update');
  if (!row) return undefined;
  const { userId: _u, cardId: _c, ...state } = row;
  return state;
}

export async function saveProgress(db: Db, userId: string, cardId: string, state: StoredState): Promise<void> {
  await db
    .insert(flashcardProgress)
    .values({ userId, cardId, ...state })
    .onConflictDoUpdate({ target: [flashcardProgress.userId, flashcardProgress.cardId], set: state });
}

export async function settingsOf(db: Db, userId: string) {
  const [row] = await db.select().from(flashcardSettings).where(eq(flashcardSettings.userId, userId));
  return row;
}

export async function saveSettings(db: Db, userId: string, dailyReminder: boolean): Promise<void> {
  await db
    .insert(flashcardSettings)
    .values({ userId, dailyReminder })
    .onConflictDoUpdate({ target: flashcardSettings.userId, set: { dailyReminder } });
}

/**
 * Students to remind today: reminder on (no settings row: on), not reminded on `today`, with cards due at `now`
 * in a deck they can see. Each is marked reminded in the same statement, so of several instances only one sends.
 */
export async function claimReminders(
  db: Db,
  today: string,
  now: Date,
  groupIdsOf: (userId: SQL) => SQL,
  limit: number,
): Promise<{ userId: string; due: number }[]> {
  const due = (userId: SQL) =>
    sql`(select coalesce(sum((select count(*) from ${flashcards} c left join ${flashcardProgress} p
        on p.card_id = c.id and p.user_id = ${userId}
        where c.deck_id = d.id and (p.due is null or p.due <= ${now.toISOString()}))), 0)::int
      from ${flashcardDecks} d where d.owner_id = ${userId} or exists (select 1 from ${flashcardShares} fs
        where fs.deck_id = d.id and fs.group_id in (${groupIdsOf(userId)})))`;
  const candidates = await rows<{ user_id: string; due: number }>(
    db,
    sql`select u.user_id, ${due(sql`u.user_id`)} as due from (
        select d.owner_id as user_id from ${flashcardDecks} d
        union select p.user_id from ${flashcardProgress} p
      ) u left join ${flashcardSettings} s on s.user_id = u.user_id
      where coalesce(s.daily_reminder, true) and (s.reminded_on is null or s.reminded_on < ${today})
      limit ${limit}`,
  );
  const out: { userId: string; due: number }[] = [];
  for (const row of candidates) {
    if (Number(row.due) <= 0) continue;
    const claimed = await db
      .insert(flashcardSettings)
      .values({ userId: row.user_id, remindedOn: today })
      .onConflictDoUpdate({
        target: flashcardSettings.userId,
        set: { remindedOn: today },
        setWhere: sql`${flashcardSettings.remindedOn} is null or ${flashcardSettings.remindedOn} < ${today}`,
      })
      .returning({ userId: flashcardSettings.userId });
    if (claimed.length) out.push({ userId: row.user_id, due: Number(row.due) });
  }
  return out;
}

export async function insertQuiz(db: Db, row: typeof flashcardQuizzes.$inferInsert): Promise<void> {
  await db.insert(flashcardQuizzes).values(row);
}

export async function findQuiz(db: Db, userId: string, id: string) {
  const [row] = await db
    .select()
    .from(flashcardQuizzes)
    .where(and(eq(flashcardQuizzes.id, id), eq(flashcardQuizzes.userId, userId)));
  return row;
}

/** Records the score once; false when the quiz was scored already. */
export async function scoreQuiz(db: Db, id: string, score: number): Promise<boolean> {
  const rows = await db
    .update(flashcardQuizzes)
    .set({ score })
    .where(and(eq(flashcardQuizzes.id, id), isNull(flashcardQuizzes.score)))
    .returning({ id: flashcardQuizzes.id });
  return rows.length > 0;
}

export type { QuizItem };
