import { and, asc, desc, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { connections, profiles } from '../../db/schema.ts';
import { COMPLETE, rows } from './social.sql.ts';

export async function areFriends(db: Db, a: string, b: string): Promise<boolean> {
  const [row] = await db
    .select({ id: connections.friendId })
    .from(connections)
    .where(and(eq(connections.userId, a), eq(connections.friendId, b)))
    .limit(1);
  return !!row;
}

/** Each is added to the other's connections (one row per direction); existing rows are kept. */
export async function addFriendship(db: Db, a: string, b: string): Promise<void> {
  await db
    .insert(connections)
    .values([
      { userId: a, friendId: b },
      { userId: b, friendId: a },
    ])
    .onConflictDoNothing();
}

/** Removes each from the other's connections; returns how many rows went (0 when they were not friends). */
export async function removeFriendship(db: Db, a: string, b: string): Promise<number> {
  const gone = await db
    .delete(connections)
    .where(
      or(
        and(eq(connections.userId, a), eq(connections.friendId, b)),
        and(eq(connections.userId, b), eq(connections.friendId, a)),
      ),
    )
    .returning({ id: connections.userId });
  return gone.length;
}

export interface FriendRow {
  uid: string;
  name: string;
  profilePicture: string;
  major: string;
  year: string;
}

/**
 * Newest friendship first (spec: accepted requests ordered by acceptedAt descending). The connection rows are written
 * in the accept transaction, so their createdAt is the acceptedAt; demo friendships without a request sort the same way.
 */
export async function listFriends(db: Db, userId: string): Promise<FriendRow[]> {
  return db
    .select({
      uid: profiles.userId,
      name: profiles.name,
      profilePicture: profiles.profilePicture,
      major: profiles.major,
      year: profiles.year,
    })
    .from(connections)
    .innerJoin(profiles, eq(profiles.userId, connections.friendId))
    .where(eq(connections.userId, userId))
    .orderBy(desc(connections.createdAt), asc(profiles.lowercaseName), asc(profiles.userId));
}

export async function friendIds(db: Db, userId: string): Promise<string[]> {
  const found = await db.select({ id: connections.friendId }).from(connections).where(eq(connections.userId, userId));
  return found.map((r) => r.id);
}

export interface TargetRow {
  college: string;
  name: string;
  complete: boolean;
}

/** What a friend request needs to know about its addressee. */
export async function findTarget(db: Db, userId: string): Promise<TargetRow | undefined> {
  const [row] = await rows<TargetRow>(
    db,
    sql`SELECT p.college, p.name, (${COMPLETE}) AS complete FROM profiles p WHERE p.user_id = ${userId}`,
  );
  return row;
}

export interface PublicProfileRow {
  uid: string;
  name: string;
  college: string;
  major: string;
  year: string;
  bio: string;
  profilePicture: string;
  additionalImages: string[];
  sharedCourses: string[];
}

/** The profile summary another student may see (no e-mail, no LMS fields), with the courses shared with `viewerId`. */
export async function findPublicProfile(
  db: Db,
  viewerId: string,
  userId: string,
): Promise<PublicProfileRow | undefined> {
  const [row] = await rows<PublicProfileRow>(
    db,
    sql`SELECT p.user_id AS uid, p.name, p.college, p.major, p.year, p.bio,
          p.profile_picture AS "profilePicture", p.additional_images AS "additionalImages",
          ARRAY(SELECT mine.name FROM profile_courses mine
                JOIN profile_courses theirs ON theirs.course_key = mine.course_key AND theirs.user_id = p.user_id
                WHERE mine.user_id = ${viewerId} ORDER BY mine.name COLLATE "C") AS "sharedCourses"
        FROM profiles p WHERE p.user_id = ${userId}`,
  );
  return row;
}
