import { and, eq, gt } from 'drizzle-orm';
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
