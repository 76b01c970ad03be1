import { randomUUID } from 'node:crypto';
import { universityForEmail } from '@studybuddy/shared/universities';
import { DEFAULT_UNIVERSITIES, type University } from '../universities-config.ts';
import type { Db } from '../db/connect.ts';
import { connections, courseworkCache, profiles, users, type CourseRef } from '../db/schema.ts';
import { hashPassword } from '../platform/passwords.ts';
import { replaceProfileCourses } from '../features/profile/profile-courses.repository.ts';

export interface SeedUser {
  email: string;
  password?: string;
  /** `password`'s hash made beforehand (hashPassword): tests that create many users hash their password once. */
  passwordHash?: string;
  verified?: boolean;
  /** A complete profile (name, major, year, custom picture) unless false. */
  complete?: boolean;
  name?: string;
  major?: string;
  year?: string;
  bio?: string;
  courses?: string[];
  profilePicture?: string;
  /** E-mails of other seeded users this one is friends with (both directions; see seedFriendships). */
  friends?: string[];
  /** Coursework as if imported from Canvas (the coursework cache): courses by LMS id with their items. */
  coursework?: { courseId: string; courseName: string; items: { id: string; name: string }[] }[];
}

/**
 * Inserts a ready account + profile directly (tests, demo data), at the college of its domain's university in
 * `universities` (the server's setting; the spec's three by default). Returns the user id.
 */
export async function seedUser(
  db: Db,
  u: SeedUser,
  universities: readonly University[] = DEFAULT_UNIVERSITIES,
): Promise<string> {
  const email = u.email.toLowerCase();
  const university = universityForEmail(universities, email);
  if (!university) throw new Error(`not an e-mail of a university in the universities setting: ${email}`);
  const id = randomUUID();
  const complete = u.complete !== false;
  const name = u.name ?? (complete ? email.split('@')[0]! : '');
  const courses: CourseRef[] = (u.courses ?? []).map((c, i) => ({ id: `seed-${i}`, name: c }));
  await db.transaction(async (tx) => {
    await tx.insert(users).values({
      id,
      email,
      passwordHash: u.passwordHash ?? (await hashPassword(u.password ?? 'password123')),
      emailVerified: u.verified !== false,
    });
    await tx.insert(profiles).values({
      userId: id,
      email,
      college: university.name,
      name,
      lowercaseName: name.toLowerCase(),
      major: u.major ?? (complete ? 'Computer Science' : ''),
      year: u.year ?? (complete ? 'Junior' : ''),
      bio: u.bio ?? '',
      courses,
      profilePicture: u.profilePicture ?? `/api/avatars/${id}.svg`,
      hasCustomProfilePicture: complete,
    });
    await replaceProfileCourses(tx, id, courses);
    if (u.coursework?.length) {
      await tx.insert(courseworkCache).values({
        userId: id,
        connectionId: 'seed',
        coursesKey: u.coursework.map((c) => c.courseId).join(','),
        courses: u.coursework.map((c) => ({ id: c.courseId, name: c.courseName })),
        coursework: u.coursework.flatMap((c) =>
          c.items.map((item) => ({
            id: item.id,
            type: 'assignment' as const,
            name: item.name,
            course_id: c.courseId,
            assignment_group: null,
            due_date: null,
            points_possible: null,
            is_graded: false,
            grade: null,
            submitted: false,
            html_url: '',
          })),
        ),
        skippedCourses: [],
        fetchedAt: new Date(),
      });
    }
  });
  return id;
}

/** Makes the `friends` of each seeded user their friends (a connection row per direction). `ids` by lower-cased e-mail. */
export async function seedFriendships(db: Db, seeded: SeedUser[], ids: Record<string, string>): Promise<void> {
  const rows = seeded.flatMap((u) =>
    (u.friends ?? []).flatMap((email) => {
      const a = ids[u.email.toLowerCase()];
      const b = ids[email.toLowerCase()];
      if (!a || !b) throw new Error(`friend ${email} of ${u.email} is not a seeded user`);
      return [
        { userId: a, friendId: b },
        { userId: b, friendId: a },
      ];
    }),
  );
  if (rows.length) await db.insert(connections).values(rows).onConflictDoNothing();
}
