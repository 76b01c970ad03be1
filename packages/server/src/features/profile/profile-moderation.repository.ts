import { and, asc, eq, inArray, like } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { profiles } from '../../db/schema/profile.ts';

/** What moderation needs of the profiles: whether the account is disabled, and a name search over every college. */

export async function setAccountDisabled(db: Db, userId: string, disabled: boolean): Promise<void> {
  await db.update(profiles).set({ accountDisabled: disabled }).where(eq(profiles.userId, userId));
}

/** Of `userIds`, those whose account is disabled. */
export async function disabledAmong(db: Db, userIds: string[]): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const found = await db
    .select({ id: profiles.userId })
    .from(profiles)
    .where(and(inArray(profiles.userId, [...new Set(userIds)]), eq(profiles.accountDisabled, true)));
  return new Set(found.map((r) => r.id));
}

export interface ListingRow {
  id: string;
  name: string;
  college: string;
}

/** Name and college of students by id (those without a profile are missing). */
export async function findListings(db: Db, userIds: string[]): Promise<ListingRow[]> {
  if (!userIds.length) return [];
  return db
    .select({ id: profiles.userId, name: profiles.name, college: profiles.college })
    .from(profiles)
    .where(inArray(profiles.userId, [...new Set(userIds)]));
}

/** Ids of students whose name contains `fragment` (case-insensitive), at any college, by name. */
export async function idsByName(db: Db, fragment: string, limit: number): Promise<string[]> {
  const pattern = `%${fragment.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const found = await db
    .select({ id: profiles.userId })
    .from(profiles)
    .where(like(profiles.lowercaseName, pattern))
    .orderBy(asc(profiles.lowercaseName), asc(profiles.userId))
    .limit(limit);
  return found.map((r) => r.id);
}
