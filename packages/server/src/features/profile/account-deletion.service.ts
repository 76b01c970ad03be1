import { MSG } from '@studybuddy/shared/messages';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest, forbidden } from '../../platform/errors.ts';
import { verifyPassword } from '../../platform/passwords.ts';
import type { SessionUser } from '../auth/session.ts';
import { deleteUserFiles } from '../files/files.service.ts';
import { deleteUserRow, findPasswordHash, sessionOpenedSince } from './profile.repository.ts';
import { withTransaction } from '../../db/transaction.ts';

/** A social-only account (no password) confirms deletion by having signed in this recently. */
export const FRESH_SIGN_IN_MS = 10 * 60 * 1000;

/**
 * Work other features must do before an account's rows disappear (e.g. deleting their own stored files,
 * or telling connected clients). Rows that reference `users` are removed by the database itself
 * (ON DELETE CASCADE, or SET NULL where a record must survive — messages then show 'Deleted user').
 *
 * ```ts
 * registerAccountCleanup(ctx, async (userId) => ctx.storage.deletePrefix(`documents/${userId}`));
 * ```
 */
export type AccountCleanup = (userId: string) => Promise<void>;

const cleanups = new WeakMap<AppContext, AccountCleanup[]>();

export function registerAccountCleanup(ctx: AppContext, cleanup: AccountCleanup): void {
  const list = cleanups.get(ctx) ?? [];
  list.push(cleanup);
  cleanups.set(ctx, list);
}

/** Confirms with the password (or a fresh social sign-in), then removes the account, its files and rows. */
export async function deleteAccount(ctx: AppContext, user: SessionUser, password: string | undefined): Promise<void> {
  const account = await findPasswordHash(ctx.db, user.id);
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
  for (const cleanup of cleanups.get(ctx) ?? []) await cleanup(user.id);
  await deleteUserFiles(ctx, user.id);
  await withTransaction(ctx.db, (tx) => deleteUserRow(tx, user.id));
}
