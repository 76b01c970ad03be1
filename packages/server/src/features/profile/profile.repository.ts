import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { rows } from '../../db/rows.ts';
import { profiles, type CourseRef } from '../../db/schema/profile.ts';

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

/** A new profile with the defaults of requirements §3 (nothing when the user has one). */
export async function insertDefaultProfile(
  db: Db,
  values: { userId: string; email: string; college: string; profilePicture: string },
): Promise<void> {
  await db
    .insert(profiles)
    .values({
      userId: values.userId,
      email: values.email.toLowerCase(),
      emailNotificationsEnabled: true,
      college: values.college,
      name: '',
      lowercaseName: '',
      major: '',
      year: '',
      bio: '',
      courses: [],
      profilePicture: values.profilePicture,
      hasCustomProfilePicture: false,
      additionalImages: [],
      gcalEnabled: false,
    })
    .onConflictDoNothing({ target: profiles.userId });
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

/** Replaces the course list (the normalised rows are the caller's to keep in step, in the same transaction). */
export async function updateCourses(db: Db, userId: string, courses: CourseRef[]): Promise<boolean> {
  const done = await db
    .update(profiles)
    .set({ courses, updatedAt: new Date() })
    .where(eq(profiles.userId, userId))
    .returning({ userId: profiles.userId });
  return done.length > 0;
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

export async function setGcalEnabled(db: Db, userId: string, enabled: boolean): Promise<void> {
  await db.update(profiles).set({ gcalEnabled: enabled }).where(eq(profiles.userId, userId));
}

/** The fields other features read one at a time (name, picture, college, courses, e-mail and flags). */
export async function findFields(db: Db, userId: string) {
  const [row] = await db
    .select({
      name: profiles.name,
      profilePicture: profiles.profilePicture,
      college: profiles.college,
      major: profiles.major,
      year: profiles.year,
      hasCustomProfilePicture: profiles.hasCustomProfilePicture,
      courses: profiles.courses,
      email: profiles.email,
      emailNotificationsEnabled: profiles.emailNotificationsEnabled,
      gcalEnabled: profiles.gcalEnabled,
    })
    .from(profiles)
    .where(eq(profiles.userId, userId))
    .limit(1);
  return row;
}

export interface CardRow {
  id: string;
  name: string;
  profilePicture: string;
  major: string;
  year: string;
  lowercaseName: string;
}

/** Name, picture, major and year of several students (those without a profile are missing). */
export async function findCards(db: Db, userIds: string[]): Promise<CardRow[]> {
  if (!userIds.length) return [];
  return db
    .select({
      id: profiles.userId,
      name: profiles.name,
      profilePicture: profiles.profilePicture,
      major: profiles.major,
      year: profiles.year,
      lowercaseName: profiles.lowercaseName,
    })
    .from(profiles)
    .where(inArray(profiles.userId, [...new Set(userIds)]));
}

export async function disableNotifications(db: Db, userId: string): Promise<boolean> {
  const done = await db
    .update(profiles)
    .set({ emailNotificationsEnabled: false })
    .where(eq(profiles.userId, userId))
    .returning({ id: profiles.userId });
  return done.length > 0;
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

/*
 * SQL for other features' one-statement queries (the chat batch write, hot groups). `userId` is an SQL
 * expression of the caller's statement; each piece is a scalar subquery on this feature's tables.
 */

/** The profile's name (null without a profile). */
export const nameSql = (userId: SQL) =>
  sql<string | null>`(select p.name from ${profiles} p where p.user_id = ${userId})`;

/** The profile's college (null without a profile). */
export const collegeSql = (userId: SQL) =>
  sql<string | null>`(select p.college from ${profiles} p where p.user_id = ${userId})`;

/**
 * True when the profile's course list holds the course (null without a profile). The server vouches for every id
 * there: Canvas's, set by an import, or its own for a course typed by hand (never one a client chose).
 */
export function holdsCourseSql(userId: SQL, courseId: string): SQL<boolean | null> {
  const course = JSON.stringify([{ id: courseId }]);
  return sql<boolean | null>`(select p.courses @> ${course}::jsonb from ${profiles} p where p.user_id = ${userId})`;
}
