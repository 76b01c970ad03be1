import type { AccountSession, ChangePasswordInput } from '@studybuddy/shared/account';
import { MSG } from '@studybuddy/shared/messages';
import { withTransaction } from '../../db/transaction.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, notFound, unauthenticated } from '../../platform/errors.ts';
import { sha256 } from '../../platform/passwords.ts';
import type { SessionUser } from '../../platform/session.ts';
import { deleteCodes, findUserById, updateUser } from './accounts.repository.ts';
import type { PasswordHasher } from './password-hasher.ts';
import { liveSessionsOf, sessionIdsOf } from './sessions.repository.ts';
import { deleteSessionsOf } from './sessions.service.ts';

/**
 * Account controls of a signed-in student (beyond the spec): changing the password, the list of their signed-in
 * browsers, and signing one or all of the others out. Whatever ends a session closes its sockets at once, on every
 * instance; the browser doing the change stays signed in.
 */

/**
 * The reference the web app names a session by. The session's id is the SHA-256 of its cookie token and stays on
 * the server; this is a hash of that, so a list of them gives nothing that opens a session.
 */
export const sessionRef = (sessionId: string): string => sha256(`session-ref:${sessionId}`).slice(0, 32);

/** Ends these sessions of the user (with the features' session clean-ups) and closes their sockets. */
async function endSessions(ctx: AppContext, userId: string, sessionIds: string[]): Promise<void> {
  if (!sessionIds.length) return;
  await withTransaction(ctx.db, (tx) => deleteSessionsOf(ctx, tx, sessionIds));
  for (const id of sessionIds) ctx.realtime.disconnect([userId], id);
}

/**
 * Sets a new password after checking the current one; every other session of the student ends (their sockets
 * close at once) and unused reset links stop working. A wrong current password is refused with a text that says
 * so; an account made through social sign-in has no password to give and is told how to set one.
 */
async function changePassword(
  ctx: AppContext,
  hasher: PasswordHasher,
  user: SessionUser,
  input: ChangePasswordInput,
): Promise<void> {
  const account = await findUserById(ctx.db, user.id);
  if (!account) throw unauthenticated();
  if (!account.passwordHash) throw badRequest(MSG.account.noPasswordYet, 'currentPassword');
  if (!(await hasher.verify(input.currentPassword, account.passwordHash))) {
    throw badRequest(MSG.account.wrongCurrentPassword, 'currentPassword');
  }
  if (input.newPassword === input.currentPassword) throw badRequest(MSG.account.samePassword, 'newPassword');
  const passwordHash = await hasher.hash(input.newPassword);
  const ended = await withTransaction(ctx.db, async (tx) => {
    await updateUser(tx, user.id, { passwordHash });
    await deleteCodes(tx, user.id, 'resetPassword');
    const others = await sessionIdsOf(tx, user.id, user.sessionId);
    await deleteSessionsOf(ctx, tx, others);
    return others;
  });
  for (const id of ended) ctx.realtime.disconnect([user.id], id);
}

/** The student's signed-in browsers, the most recently active first; `current` marks the one asking. */
async function listSessions(ctx: AppContext, user: SessionUser): Promise<AccountSession[]> {
  const rows = await liveSessionsOf(ctx.db, user.id);
  return rows.map((r) => ({
    id: sessionRef(r.id),
    createdAt: r.createdAt.toISOString(),
    lastSeenAt: r.lastSeenAt.toISOString(),
    userAgent: r.userAgent,
    current: r.id === user.sessionId,
  }));
}

/**
 * Signs one of the student's browsers out. A reference that names none of their live sessions (someone else's,
 * made up, already ended) is a 404. True when it was the browser asking (the caller clears its cookie).
 */
async function signOutSession(ctx: AppContext, user: SessionUser, ref: string): Promise<{ current: boolean }> {
  const found = (await liveSessionsOf(ctx.db, user.id)).find((r) => sessionRef(r.id) === ref);
  if (!found) throw notFound(MSG.account.sessionNotFound);
  await endSessions(ctx, user.id, [found.id]);
  return { current: found.id === user.sessionId };
}

/** Signs every other browser of the student out; how many there were. */
async function signOutOthers(ctx: AppContext, user: SessionUser): Promise<number> {
  const others = await sessionIdsOf(ctx.db, user.id, user.sessionId);
  await endSessions(ctx, user.id, others);
  return others.length;
}

export type AccountSecurityService = ReturnType<typeof createAccountSecurityService>;

/** The signed-in student's password and browsers (issue 24, account controls), built in auth.feature.ts. */
export function createAccountSecurityService(deps: { ctx: AppContext; hasher: PasswordHasher }) {
  const { ctx, hasher } = deps;
  return {
    changePassword: (user: SessionUser, input: ChangePasswordInput) => changePassword(ctx, hasher, user, input),
    listSessions: (user: SessionUser) => listSessions(ctx, user),
    signOutSession: (user: SessionUser, ref: string) => signOutSession(ctx, user, ref),
    signOutOthers: (user: SessionUser) => signOutOthers(ctx, user),
  };
}
