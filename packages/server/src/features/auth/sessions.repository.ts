import { and, desc, eq, gt, inArray, lte, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { sessions, users } from '../../db/schema/auth.ts';
import { newToken, sha256 } from '../../platform/passwords.ts';
import type { SessionUser } from '../../platform/session.ts';

/** Sessions: one row per signed-in browser, keyed by the SHA-256 of its cookie token. */

const SESSION_MS = 30 * 24 * 60 * 60 * 1000;

/** The longest User-Agent kept with a session. */
const USER_AGENT_MAX = 512;
/** A session's last-seen time moves forward at most this often (one write per session per interval, not per request). */
export const LAST_SEEN_EVERY_MS = 5 * 60 * 1000;

export async function createSession(
  db: Db,
  userId: string,
  userAgent = '',
): Promise<{ token: string; expiresAt: Date }> {
  const { token, hash } = newToken();
  const expiresAt = new Date(Date.now() + SESSION_MS);
  await db.insert(sessions).values({ id: hash, userId, expiresAt, userAgent: userAgent.slice(0, USER_AGENT_MAX) });
  return { token, expiresAt };
}

export async function findSessionUser(db: Db, token: string): Promise<SessionUser | null> {
  const id = sha256(token);
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      emailVerified: users.emailVerified,
      disabled: users.disabled,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, id), gt(sessions.expiresAt, new Date())))
    .limit(1);
  if (!row || row.disabled) return null;
  // Last seen: written only when it is older than the interval, and then once (the condition is checked again).
  if (Date.now() - row.lastSeenAt.getTime() >= LAST_SEEN_EVERY_MS) await touchSession(db, id);
  return { id: row.id, email: row.email, emailVerified: row.emailVerified, sessionId: id };
}

async function touchSession(db: Db, sessionId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ lastSeenAt: sql`now()` })
    .where(
      and(
        eq(sessions.id, sessionId),
        lte(sessions.lastSeenAt, sql`now() - ${sql.raw(`interval '${LAST_SEEN_EVERY_MS / 1000} seconds'`)}`),
      ),
    );
}

export type SessionRow = Pick<typeof sessions.$inferSelect, 'id' | 'createdAt' | 'lastSeenAt' | 'userAgent'>;

/** The user's unexpired sessions, the most recently seen first. */
export async function liveSessionsOf(db: Db, userId: string): Promise<SessionRow[]> {
  return db
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      userAgent: sessions.userAgent,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, new Date())))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
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
