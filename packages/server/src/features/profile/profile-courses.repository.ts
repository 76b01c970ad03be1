import { eq } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { profileCourses, type CourseRef } from '../../db/schema/profile.ts';

export const courseKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

/** Replaces the normalised course rows of a user (call inside the transaction that saves the profile). */
export async function replaceProfileCourses(db: Db, userId: string, courses: CourseRef[]): Promise<void> {
  await db.delete(profileCourses).where(eq(profileCourses.userId, userId));
  const rows = new Map<string, { userId: string; courseKey: string; name: string }>();
  for (const c of courses) {
    const key = courseKey(c.name);
    if (key && !rows.has(key)) rows.set(key, { userId, courseKey: key, name: c.name.trim() });
  }
  if (rows.size) await db.insert(profileCourses).values([...rows.values()]);
}
