import { eq } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { calendarFeeds, calendarGoogleTokens, profiles } from '../../db/schema.ts';
import { withTransaction } from '../../db/transaction.ts';

export type StoredGoogleTokens = typeof calendarGoogleTokens.$inferSelect;

export async function findGoogleTokens(db: Db, userId: string): Promise<StoredGoogleTokens | undefined> {
  const [row] = await db.select().from(calendarGoogleTokens).where(eq(calendarGoogleTokens.userId, userId)).limit(1);
  return row;
}

/** Stores new tokens; a grant without a refresh token keeps the one stored before. Marks gcal_enabled. */
export async function saveGoogleTokens(
  db: Db,
  userId: string,
  values: { accessToken: string; refreshToken: string | null; expiresAt: Date; scope: string },
): Promise<void> {
  await withTransaction(db, async (tx) => {
    const { refreshToken, ...rest } = values;
    await tx
      .insert(calendarGoogleTokens)
      .values({ userId, ...values })
      .onConflictDoUpdate({
        target: calendarGoogleTokens.userId,
        set: { ...rest, ...(refreshToken ? { refreshToken } : {}), updatedAt: new Date() },
      });
    await tx.update(profiles).set({ gcalEnabled: true }).where(eq(profiles.userId, userId));
  });
}

export async function saveChosenCalendar(db: Db, userId: string, calendarId: string): Promise<void> {
  await db.update(calendarGoogleTokens).set({ calendarId }).where(eq(calendarGoogleTokens.userId, userId));
}

export async function deleteGoogleTokens(db: Db, userId: string): Promise<void> {
  await db.delete(calendarGoogleTokens).where(eq(calendarGoogleTokens.userId, userId));
}

/** Disconnect: the tokens and the chosen calendar go, and the next connect asks for consent again. */
export async function removeGoogleConnection(db: Db, userId: string): Promise<void> {
  await withTransaction(db, async (tx) => {
    await tx.delete(calendarGoogleTokens).where(eq(calendarGoogleTokens.userId, userId));
    await tx.update(profiles).set({ gcalEnabled: false }).where(eq(profiles.userId, userId));
  });
}

export async function gcalEnabled(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ gcal: profiles.gcalEnabled })
    .from(profiles)
    .where(eq(profiles.userId, userId))
    .limit(1);
  return row?.gcal ?? false;
}

export async function ensureGcalEnabled(db: Db, userId: string): Promise<void> {
  await db.update(profiles).set({ gcalEnabled: true }).where(eq(profiles.userId, userId));
}

export async function findFeed(db: Db, userId: string) {
  const [row] = await db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, userId)).limit(1);
  return row;
}

export async function findFeedOwner(db: Db, tokenHash: string): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: calendarFeeds.userId })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.tokenHash, tokenHash))
    .limit(1);
  return row?.userId;
}

/** Creates the feed or replaces its secret (the old address stops working at once). */
export async function saveFeed(db: Db, userId: string, tokenHash: string, tokenBox: string): Promise<void> {
  await db
    .insert(calendarFeeds)
    .values({ userId, tokenHash, tokenBox })
    .onConflictDoUpdate({ target: calendarFeeds.userId, set: { tokenHash, tokenBox, createdAt: new Date() } });
}

export async function deleteFeed(db: Db, userId: string): Promise<void> {
  await db.delete(calendarFeeds).where(eq(calendarFeeds.userId, userId));
}

export async function profileEmail(db: Db, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ email: profiles.email }).from(profiles).where(eq(profiles.userId, userId)).limit(1);
  return row?.email;
}
