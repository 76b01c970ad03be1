import type { Db } from '../../db/connect.ts';
import type { SessionStore } from '../../platform/session.ts';
import { findSessionUser } from './sessions.repository.ts';

export { createSession, deleteSession, findSessionUser } from './sessions.repository.ts';

// The session helpers every route used from here now live in the platform (platform/session.ts).
export {
  clearSessionCookie,
  requireUser,
  SESSION_COOKIE,
  setSessionCookie,
  signedIn,
  type SessionUser,
} from '../../platform/session.ts';

/** The platform's session store over this feature's `sessions` and `users` tables. */
export const createSessionStore = (db: Db): SessionStore => ({ find: (token) => findSessionUser(db, token) });
