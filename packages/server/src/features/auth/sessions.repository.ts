import { and, eq, gt, inArray, lte, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { sessions, users } from '../../db/schema/auth.ts';
import { newToken, sha256 } from '../../platform/passwords.ts';
import type { SessionUser } from '../../platform/session.ts';

/** Sessions: one row per signed-in browser, keyed by the SHA-256 of its cookie token. */

const SESSION_MS = 30 * 24 * 60 * 60 * 1000;

export async function createSession(db: Db, userId: string): Promise<{ token: string; expiresAt: Date }> {
  const { token, hash } = newToken();
  const expiresAt = new Date(Date.now() + SESSION_MS);
  await db.insert(sessions).values({ id: hash, userId, expiresAt });
  return { token, expiresAt };
}

export async function findSessionUser(db: Db, token: string): Promise<SessionUser | null> {
  const id = sha256(token);
  const [row] = await db
    .select({ id: users.id, email: users.email, emailVerified: users.emailVerified, disabled: users.disabled })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, id), gt(sessions.expiresAt, new Date())))
    .limit(1);
  if (!row || row.disabled) return null;
  return { id: row.id, email: row.email, emailVerified: row.emailVerified, sessionId: id };
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

export async function deleteSessions(db: Db, sessionIds: readonly string[]): Promise<void> {
  if (sessionIds.length) await db.delete(sessions).where(inArray(sessions.id, [...sessionIds]));
}

/** The ids of a user's sessions, less `keepSessionId` (the browser doing the change). */
export async function sessionIdsOf(db: Db, userId: string, keepSessionId?: string): Promise<string[]> {
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      keepSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)) : eq(sessions.userId, userId),
    );
  return rows.map((r) => r.id);
}

/**
 * Up to `limit` expired sessions, locked for the caller's transaction; sessions another transaction holds are
 * passed over, so sweeps running at once on several instances never take the same one.
 */
export async function lockExpiredSessions(db: Db, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(lte(sessions.expiresAt, sql`now()`))
    .limit(limit)
    .for('update', { skipLocked: true });
  return rows.map((r) => r.id);
}

/**
 * True when the session (an SQL expression of the caller) is live: unexpired, of an account that is not
 * disabled. Other features embed it where one statement must decide (push targets).
 */
export const liveSessionSql = (sessionId: SQL) =>
  sql<boolean>`exists (select 1 from ${sessions} s join ${users} u on u.id = s.user_id
    where s.id = ${sessionId} and s.expires_at > now() and not u.disabled)`;
