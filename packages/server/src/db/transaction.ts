import type { Db } from './connect.ts';

/**
 * Runs `work` in one transaction: committed when it resolves, rolled back when it throws. The transaction is a
 * `Db` like any other, so repository functions take it as they take `ctx.db`.
 */
export function withTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => work(tx));
}
