import type { Db } from '../../db/connect.ts';
import { withTransaction } from '../../db/transaction.ts';
import type { AppContext } from '../../platform/context.ts';
import type { SessionCleanup } from '../../platform/registry.ts';
import { deleteUserSessions } from './accounts.repository.ts';
import * as repo from './sessions.repository.ts';

/**
 * The accounts feature's sessions as other features may use them. `sql.isLive(sessionId)`: the session (an SQL
 * expression of the caller) is unexpired and its account not disabled, for statements that must decide in one go
 * (push targets).
 */
export const accountSessions = {
  sql: { isLive: repo.liveSessionSql },
};

/**
 * Registers work to do when sessions end, in the transaction that deletes them:
 *
 * ```ts
 * registerSessionCleanup(ctx, (db, sessionIds) => repo.deleteSessionSubscriptions(db, sessionIds));
 * ```
 */
export function registerSessionCleanup(ctx: AppContext, cleanup: SessionCleanup): void {
  ctx.registry.sessionCleanups.push(cleanup);
}

/** Deletes these sessions in the caller's transaction, after the features' clean-ups. */
export async function deleteSessionsOf(ctx: AppContext, db: Db, sessionIds: string[]): Promise<void> {
  if (!sessionIds.length) return;
  for (const cleanup of ctx.registry.sessionCleanups) await cleanup(db, sessionIds);
  await repo.deleteSessions(db, sessionIds);
}

/** Ends one session (log-out, or a new sign-in in the same browser) and closes its sockets on every instance. */
export async function endSession(ctx: AppContext, user: { id: string; sessionId: string }): Promise<void> {
  await withTransaction(ctx.db, (tx) => deleteSessionsOf(ctx, tx, [user.sessionId]));
  ctx.realtime.disconnect([user.id], user.sessionId);
}

/**
 * Ends every session of a user but `keepSessionId`, in the caller's transaction; the caller closes the sockets
 * (`ctx.realtime.disconnect`) once it is committed.
 */
export async function endUserSessions(ctx: AppContext, db: Db, userId: string, keepSessionId?: string): Promise<void> {
  const ids = await repo.sessionIdsOf(db, userId, keepSessionId);
  for (const cleanup of ctx.registry.sessionCleanups) if (ids.length) await cleanup(db, ids);
  await deleteUserSessions(db, userId, keepSessionId);
}
