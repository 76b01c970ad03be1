import { and, eq, gt } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/connect.ts';
import { sessions, users } from '../../db/schema.ts';
import { unauthenticated } from '../../platform/errors.ts';
import { newToken, sha256 } from '../../platform/passwords.ts';

export const SESSION_COOKIE = 'sb_session';
const SESSION_MS = 30 * 24 * 60 * 60 * 1000;

export interface SessionUser {
  id: string;
  email: string;
  emailVerified: boolean;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
  }
}

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

export function setSessionCookie(reply: FastifyReply, token: string, expiresAt: Date, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure, expires: expiresAt });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/** Resolves `request.user` from the session cookie for every API request. */
export function installSessionResolver(app: FastifyInstance, db: Db): void {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const token = request.cookies[SESSION_COOKIE];
    request.user = token ? await findSessionUser(db, token) : null;
  });
}

/** The signed-in user with a verified e-mail, or a 401. */
export function requireUser(request: FastifyRequest): SessionUser {
  const user = request.user;
  if (!user || !user.emailVerified) throw unauthenticated();
  return user;
}

/** Route hook (`preValidation: signedIn`): a signed-out caller hears 401 before anything about its input. */
export async function signedIn(request: FastifyRequest): Promise<void> {
  requireUser(request);
}
