import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { unauthenticated } from './errors.ts';

/**
 * Who is signed in. The platform reads the session cookie of every API request and asks the session store
 * (the accounts feature's, given to the app at start-up) whose it is; routes then call `requireUser`.
 */

export const SESSION_COOKIE = 'sb_session';

export interface SessionUser {
  id: string;
  email: string;
  emailVerified: boolean;
  sessionId: string;
}

/** Finds the user of a session token (null when unknown, expired or the account is disabled). */
export interface SessionStore {
  find(token: string): Promise<SessionUser | null>;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
  }
}

export function setSessionCookie(reply: FastifyReply, token: string, expiresAt: Date, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure, expires: expiresAt });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/**
 * Resolves `request.user` from the session cookie for every API request. Requests with the same cookie that
 * arrive while its lookup is under way share that lookup: a burst of a hundred socket upgrades from one student
 * costs one query, not a hundred queued in front of everyone else's. Nothing is kept once the lookup answers.
 */
export function installSessionResolver(app: FastifyInstance, store: SessionStore): void {
  const lookups = new Map<string, Promise<SessionUser | null>>();
  const find = (token: string) => {
    let lookup = lookups.get(token);
    if (!lookup) {
      lookup = store.find(token).finally(() => lookups.delete(token));
      lookups.set(token, lookup);
    }
    return lookup;
  };
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const token = request.cookies[SESSION_COOKIE];
    request.user = token ? await find(token) : null;
  });
}

/** The signed-in user with a verified e-mail, or a 401. */
export function requireUser(request: FastifyRequest): SessionUser {
  const user = request.user;
  if (!user || !user.emailVerified) throw unauthenticated();
  return user;
}

/** A `preValidation` hook: a signed-out request is answered 401 before its input is validated. */
export async function signedIn(request: FastifyRequest): Promise<void> {
  requireUser(request);
}
