import { eq } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { calendarFeeds, calendarGoogleTokens } from '../../db/schema/calendar.ts';

export type StoredGoogleTokens = typeof calendarGoogleTokens.$inferSelect;

export async function findGoogleTokens(db: Db, userId: string): Promise<StoredGoogleTokens | undefined> {
  const [row] = await db.select().from(calendarGoogleTokens).where(eq(calendarGoogleTokens.userId, userId)).limit(1);
  return row;
}

/** Stores new tokens; a grant without a refresh token keeps the one stored before. */
export async function saveGoogleTokens(
  db: Db,
  userId: string,
  values: { accessToken: string; refreshToken: string | null; expiresAt: Date; scope: string },
): Promise<void> {
  const { refreshToken, ...rest } = values;
  await db
    .insert(calendarGoogleTokens)
    .values({ userId, ...values })
    .onConflictDoUpdate({
      target: calendarGoogleTokens.userId,
      set: { ...rest, ...(refreshToken ? { refreshToken } : {}), updatedAt: new Date() },
    });
}

export async function saveChosenCalendar(db: Db, userId: string, calendarId: string): Promise<void> {
  await db.update(calendarGoogleTokens).set({ calendarId }).where(eq(calendarGoogleTokens.userId, userId));
}

export async function deleteGoogleTokens(db: Db, userId: string): Promise<void> {
  await db.delete(calendarGoogleTokens).where(eq(calendarGoogleTokens.userId, userId));
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
