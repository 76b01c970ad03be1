import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { connections, profiles, sessions, users, type CourseRef } from '../../db/schema.ts';

export type ProfileRow = typeof profiles.$inferSelect;

export interface ProfileChanges {
  name: string;
  major: string;
  year: string;
  bio: string;
  courses: CourseRef[];
  profilePicture: string;
  hasCustomProfilePicture: boolean;
  additionalImages: string[];
}

export async function findProfile(db: Db, userId: string): Promise<ProfileRow | undefined> {
  const [row] = await db.select().from(profiles).where(eq(profiles.userId, userId)).limit(1);
  return row;
}

/** Writes the editable fields; lowercaseName always follows name. */
export async function updateProfile(db: Db, userId: string, changes: ProfileChanges): Promise<ProfileRow | undefined> {
  const [row] = await db
    .update(profiles)
    .set({ ...changes, lowercaseName: changes.name.toLowerCase(), updatedAt: new Date() })
    .where(eq(profiles.userId, userId))
    .returning();
  return row;
}

export async function updateNotificationSettings(
  db: Db,
  userId: string,
  emailNotificationsEnabled: boolean,
): Promise<ProfileRow | undefined> {
  const [row] = await db
    .update(profiles)
    .set({ emailNotificationsEnabled, updatedAt: new Date() })
    .where(eq(profiles.userId, userId))
    .returning();
  return row;
}

export async function findPasswordHash(db: Db, userId: string): Promise<{ passwordHash: string | null } | undefined> {
  const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  return row;
}

/** True when the session was opened after `since` (a fresh sign-in). */
export async function sessionOpenedSince(db: Db, sessionId: string, since: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), gt(sessions.createdAt, since)));
  return !!row;
}

/** Deletes the account; every table that references users cascades (or nulls its reference). */
export async function deleteUserRow(db: Db, userId: string): Promise<void> {
  await db.delete(users).where(eq(users.id, userId));
}

/** Ids of the user's friends (who see this profile and should hear about changes). */
export async function findFriendIds(db: Db, userId: string): Promise<string[]> {
  const rows = await db.select({ id: connections.friendId }).from(connections).where(eq(connections.userId, userId));
  return rows.map((r) => r.id);
}
