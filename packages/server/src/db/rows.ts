import { sql, type SQL } from 'drizzle-orm';
import type { PgInsertValue, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './connect.ts';

/** Runs raw SQL and returns its rows (PGlite and node-postgres both answer `{ rows }`). */
export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as { rows: unknown[] };
  return result.rows as T[];
}

/** Inserts the row unless its key is taken; true when it was new. */
export async function insertIfAbsent<T extends PgTable>(db: Db, table: T, row: PgInsertValue<T>): Promise<boolean> {
  const made = await db
    .insert(table)
    .values(row)
    .onConflictDoNothing()
    .returning({ one: sql`1` });
  return made.length > 0;
}

/** Deletes the rows `where` picks; true when there was one. */
export async function deleteIfPresent(db: Db, table: PgTable, where: SQL | undefined): Promise<boolean> {
  const gone = await db
    .delete(table)
    .where(where)
    .returning({ one: sql`1` });
  return gone.length > 0;
}
