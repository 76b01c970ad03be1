import { randomUUID } from 'node:crypto';
import { and, eq, gt, inArray, isNull, like, lte, ne } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { authCodes, oauthIdentities, sessions, users } from '../../db/schema/auth.ts';
import { newToken, sha256 } from '../../platform/passwords.ts';

export type AccountRow = typeof users.$inferSelect;
export type CodePurpose = 'verifyEmail' | 'resetPassword';

export async function findUserByEmail(db: Db, email: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return row;
}

export async function findUserById(db: Db, id: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function insertUser(
  db: Db,
  u: { email: string; passwordHash: string | null; emailVerified: boolean },
): Promise<string> {
  const id = randomUUID();
  await db.insert(users).values({ id, ...u, email: u.email.toLowerCase() });
  return id;
}

export async function updateUser(
  db: Db,
  id: string,
  set: Partial<Pick<AccountRow, 'passwordHash' | 'emailVerified'>>,
): Promise<void> {
  await db.update(users).set(set).where(eq(users.id, id));
}

/** Marks the account disabled; false when there is no such account. */
export async function disableUser(db: Db, id: string): Promise<boolean> {
  const rows = await db.update(users).set({ disabled: true }).where(eq(users.id, id)).returning({ id: users.id });
  return rows.length > 0;
}

/** Lets a disabled account sign in again; false when there is no such account. */
export async function enableUser(db: Db, id: string): Promise<boolean> {
  const rows = await db.update(users).set({ disabled: false }).where(eq(users.id, id)).returning({ id: users.id });
  return rows.length > 0;
}

/** Accounts by id (those that do not exist are missing). */
export async function findUsersByIds(db: Db, ids: string[]): Promise<AccountRow[]> {
  if (!ids.length) return [];
  return db.select().from(users).where(inArray(users.id, ids));
}

/** Accounts whose e-mail contains `fragment` (case-insensitive), by e-mail. */
export async function findUsersByEmailFragment(db: Db, fragment: string, limit: number): Promise<AccountRow[]> {
  const pattern = `%${fragment.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return db.select().from(users).where(like(users.email, pattern)).orderBy(users.email).limit(limit);
}

export async function deleteUser(db: Db, id: string): Promise<void> {
  await db.delete(users).where(eq(users.id, id));
}

/** True when the session was opened after `since` (a fresh sign-in). */
export async function sessionOpenedSince(db: Db, sessionId: string, since: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), gt(sessions.createdAt, since)));
  return !!row;
}

/** Ends every session of a user, except `keepSessionId` (the browser doing the change). */
export async function deleteUserSessions(db: Db, userId: string, keepSessionId?: string): Promise<void> {
  await db
    .delete(sessions)
    .where(
      keepSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)) : eq(sessions.userId, userId),
    );
}

/**
 * A new single-use code for a mailed link; only its SHA-256 is stored. Earlier unused codes of the same
 * purpose are withdrawn: after a resend only the newest verification link works (the older one is refused
 * with 'The verification link is invalid or has expired.'), and likewise for reset links.
 */
export async function issueCode(db: Db, userId: string, purpose: CodePurpose, ttlMs: number): Promise<string> {
  const { token, hash } = newToken();
  await db.delete(authCodes).where(and(eq(authCodes.userId, userId), eq(authCodes.purpose, purpose)));
  await db.insert(authCodes).values({ id: hash, userId, purpose, expiresAt: new Date(Date.now() + ttlMs) });
  return token;
}

const usable = (code: string, purpose: CodePurpose) =>
  and(
    eq(authCodes.id, sha256(code)),
    eq(authCodes.purpose, purpose),
    isNull(authCodes.usedAt),
    gt(authCodes.expiresAt, new Date()),
  );

/** The user a code belongs to if it is unused and unexpired, without using it up. */
export async function peekCode(db: Db, code: string, purpose: CodePurpose): Promise<string | undefined> {
  const [row] = await db.select({ userId: authCodes.userId }).from(authCodes).where(usable(code, purpose)).limit(1);
  return row?.userId;
}

/** Uses a code up (atomically: of two concurrent uses only one succeeds); the user it belonged to, or undefined. */
export async function consumeCode(db: Db, code: string, purpose: CodePurpose): Promise<string | undefined> {
  const [row] = await db
    .update(authCodes)
    .set({ usedAt: new Date() })
    .where(usable(code, purpose))
    .returning({ userId: authCodes.userId });
  return row?.userId;
}

export async function deleteCodes(db: Db, userId: string, purpose: CodePurpose): Promise<void> {
  await db.delete(authCodes).where(and(eq(authCodes.userId, userId), eq(authCodes.purpose, purpose)));
}

export async function findIdentity(db: Db, provider: string, subject: string): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: oauthIdentities.userId })
    .from(oauthIdentities)
    .where(and(eq(oauthIdentities.provider, provider), eq(oauthIdentities.subject, subject)))
    .limit(1);
  return row?.userId;
}

export async function insertIdentity(db: Db, provider: string, subject: string, userId: string): Promise<void> {
  await db.insert(oauthIdentities).values({ provider, subject, userId });
}

/** True for a unique-constraint violation (PostgreSQL and PGlite both report SQLSTATE 23505). */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** Whether an unusable code is one that was issued and ran out unused (rather than made up, used or replaced). */
export async function isExpiredCode(db: Db, code: string, purpose: CodePurpose): Promise<boolean> {
  const [row] = await db
    .select({ id: authCodes.id })
    .from(authCodes)
    .where(
      and(
        eq(authCodes.id, sha256(code)),
        eq(authCodes.purpose, purpose),
        isNull(authCodes.usedAt),
        lte(authCodes.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return !!row;
}
