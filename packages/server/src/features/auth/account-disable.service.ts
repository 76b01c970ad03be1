import { withTransaction } from '../../db/transaction.ts';
import type { AppContext } from '../../platform/context.ts';
import { profiles } from '../profile/profiles.service.ts';
import { disableUser, enableUser } from './accounts.repository.ts';
import { endUserSessions } from './sessions.service.ts';

/**
 * Disables an account (admins do, from the moderation area). The student can no longer sign in nor reset the
 * password; every session ends, with what the features' session clean-ups remove (push subscriptions), and every
 * socket of theirs closes at once, on every instance. Their profile is marked too, so matching, search and groups'
 * member lists leave them out. False when there is no such account.
 */
export async function disableAccount(ctx: AppContext, userId: string): Promise<boolean> {
  const disabled = await withTransaction(ctx.db, async (tx) => {
    if (!(await disableUser(tx, userId))) return false;
    await profiles.moderation.setAccountDisabled(tx, userId, true);
    await endUserSessions(ctx, tx, userId);
    return true;
  });
  if (disabled) ctx.realtime.disconnect([userId]);
  return disabled;
}

/** Lets a disabled student sign in again and shows them to others again. False when there is no such account. */
export async function enableAccount(ctx: AppContext, userId: string): Promise<boolean> {
  return withTransaction(ctx.db, async (tx) => {
    if (!(await enableUser(tx, userId))) return false;
    await profiles.moderation.setAccountDisabled(tx, userId, false);
    return true;
  });
}
