import { withTransaction } from '../../db/transaction.ts';
import type { AppContext } from '../../platform/context.ts';
import { disableUser } from './accounts.repository.ts';
import { endUserSessions } from './sessions.service.ts';

/**
 * Disables an account (there is no admin screen: operators call this). The student can no longer sign in nor reset
 * the password; every session ends, with what the features' session clean-ups remove (push subscriptions), and
 * every socket of theirs closes at once, on every instance. False when there is no such account.
 */
export async function disableAccount(ctx: AppContext, userId: string): Promise<boolean> {
  const disabled = await withTransaction(ctx.db, async (tx) => {
    if (!(await disableUser(tx, userId))) return false;
    await endUserSessions(ctx, tx, userId);
    return true;
  });
  if (disabled) ctx.realtime.disconnect([userId]);
  return disabled;
}
