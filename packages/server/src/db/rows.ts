import type { SQL } from 'drizzle-orm';
import type { Db } from './connect.ts';

/** Runs raw SQL and returns its rows (PGlite and node-postgres both answer `{ rows }`). */
export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as { rows: unknown[] };
  return result.rows as T[];
}
