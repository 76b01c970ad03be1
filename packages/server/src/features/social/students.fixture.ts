// Test and benchmark helper: inserts many ready students at once (no password hashing), and signs them in.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { courseKey } from '@studybuddy/shared/match-score';
import type { Db } from '../../db/connect.ts';
import { connections, profileCourses, profiles, users } from '../../db/schema.ts';
import { SESSION_COOKIE } from '../../platform/session.ts';
import { DEFAULT_UNIVERSITIES } from '../../universities-config.ts';
import { createSession } from '../auth/session.ts';

export interface StudentSpec {
  /** The key of one of the default universities (UCLA unless said). */
  college?: 'UCLA' | 'CMU' | 'WISC';
  name: string;
  major?: string;
  year?: string;
  courses?: string[];
  bio?: string;
  additionalImages?: string[];
  /** False leaves the picture a default avatar (an incomplete profile). */
  customPicture?: boolean;
  createdAt?: Date;
}

export interface Student {
  id: string;
  email: string;
  college: string;
}

const BATCH = 500;

export async function insertStudents(db: Db, specs: StudentSpec[]): Promise<Student[]> {
  const made: Student[] = [];
  for (let start = 0; start < specs.length; start += BATCH) {
    const batch = specs.slice(start, start + BATCH).map((s) => {
      const uni = DEFAULT_UNIVERSITIES.find((u) => u.key === (s.college ?? 'UCLA'))!;
      const id = randomUUID();
      return { id, email: `${id}@${uni.domains[0]}`, college: uni.name, spec: s };
    });
    await db.transaction(async (tx) => {
      await tx.insert(users).values(batch.map((b) => ({ id: b.id, email: b.email, emailVerified: true })));
      await tx.insert(profiles).values(
        batch.map((b) => ({
          userId: b.id,
          email: b.email,
          college: b.college,
          name: b.spec.name,
          lowercaseName: b.spec.name.toLowerCase(),
          major: b.spec.major ?? 'Computer Science',
          year: b.spec.year ?? 'Junior',
          bio: b.spec.bio ?? '',
          courses: (b.spec.courses ?? []).map((name, i) => ({ id: `c${i}`, name })),
          profilePicture: `/pictures/${b.id}.jpg`,
          hasCustomProfilePicture: b.spec.customPicture !== false,
          additionalImages: b.spec.additionalImages ?? [],
          ...(b.spec.createdAt ? { createdAt: b.spec.createdAt } : {}),
        })),
      );
      const courseRows = new Map<string, { userId: string; courseKey: string; name: string }>();
      for (const b of batch) {
        for (const name of b.spec.courses ?? []) {
          const key = courseKey(name);
          const k = `${b.id}|${key}`;
          if (key && !courseRows.has(k)) courseRows.set(k, { userId: b.id, courseKey: key, name: name.trim() });
        }
      }
      if (courseRows.size) await tx.insert(profileCourses).values([...courseRows.values()]);
    });
    made.push(...batch.map(({ id, email, college }) => ({ id, email, college })));
  }
  return made;
}

/** Makes two students friends directly (both connection rows). */
export async function befriend(db: Db, a: string, b: string): Promise<void> {
  await db.insert(connections).values([
    { userId: a, friendId: b },
    { userId: b, friendId: a },
  ]);
}

/** A cookie header value that signs the student in. */
export async function cookieFor(db: Db, userId: string): Promise<string> {
  const { token } = await createSession(db, userId);
  return `${SESSION_COOKIE}=${token}`;
}

export async function setCreatedAt(db: Db, ids: string[], at: Date): Promise<void> {
  if (!ids.length) return;
  await db.execute(
    sql`UPDATE profiles SET created_at = ${at.toISOString()}::timestamptz WHERE user_id IN (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
}

interface Injectable {
  inject: FastifyInstance['inject'];
}

export interface Reply<T = unknown> {
  status: number;
  body: T;
}

/** The social API as one student calls it (through `app.inject`, cookies and all). */
export function asStudent(app: Injectable, cookie: string) {
  const call = async <T>(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown): Promise<Reply<T>> => {
    const res = await app.inject({
      method,
      url,
      headers: { cookie },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    return { status: res.statusCode, body: res.json() as T };
  };
  return {
    call,
    get: <T>(url: string) => call<T>('GET', url),
    post: <T>(url: string, payload: unknown = {}) => call<T>('POST', url, payload),
    del: <T>(url: string) => call<T>('DELETE', url),
  };
}
