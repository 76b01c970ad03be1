import { MSG } from '@studybuddy/shared/messages';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest, forbidden } from '../../platform/errors.ts';
import { verifyPassword } from '../../platform/passwords.ts';
import type { AccountCleanup } from '../../platform/registry.ts';
import type { SessionUser } from '../../platform/session.ts';
import { deleteUser, findUserById, sessionOpenedSince } from './accounts.repository.ts';

/** A social-only account (no password) confirms deletion by having signed in this recently. */
export const FRESH_SIGN_IN_MS = 10 * 60 * 1000;

/**
 * Registers work to do before an account's rows disappear (e.g. deleting the feature's stored files):
 *
 * ```ts
 * registerAccountCleanup(ctx, async (userId) => ctx.storage.deletePrefix(`documents/${userId}`));
 * ```
 */
export function registerAccountCleanup(ctx: AppContext, cleanup: AccountCleanup): void {
  ctx.registry.accountCleanups.push(cleanup);
}

/**
 * Confirms with the password (or a fresh social sign-in), then removes the account, its files and rows: the
 * features' clean-ups run first (files, chats and group messages, groups, the Canvas token with Canvas), so a failure
 * leaves the account in place to try again.
 */
export async function deleteAccount(ctx: AppContext, user: SessionUser, password: string | undefined): Promise<void> {
  const account = await findUserById(ctx.db, user.id);
  if (!account) throw forbidden();
  if (account.passwordHash) {
    if (!password) throw badRequest(MSG.profile.deleteWrongPassword, 'password');
    if (!(await verifyPassword(password, account.passwordHash))) {
      throw badRequest(MSG.profile.deleteWrongPassword, 'password');
    }
  } else if (!(await sessionOpenedSince(ctx.db, user.sessionId, new Date(Date.now() - FRESH_SIGN_IN_MS)))) {
    throw new AppError(403, 'reauthenticate', MSG.profile.deleteNeedsFreshLogin);
  }

  // Files first: if anything fails the account still exists and the user can simply try again.
  for (const cleanup of ctx.registry.accountCleanups) await cleanup(user.id);
  // The rows: sessions, push subscriptions and everything else that references the account (ON DELETE CASCADE).
  await deleteUser(ctx.db, user.id);
  // Every tab of the student, on every instance, is signed out at once.
  ctx.realtime.disconnect([user.id]);
}
