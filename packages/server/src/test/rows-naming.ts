import { sql } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';

/** Every row of every table of the public schema whose text contains one of the needles (an account's traces). */
export async function rowsNaming(db: Db, needles: string[]): Promise<{ table: string; row: string }[]> {
  const query = async <T>(q: ReturnType<typeof sql.raw>) => ((await db.execute(q)) as unknown as { rows: T[] }).rows;
  const tables = await query<{ table_name: string }>(
    sql.raw(
      `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    ),
  );
  const found: { table: string; row: string }[] = [];
  for (const { table_name } of tables) {
    for (const { row } of await query<{ row: string }>(sql.raw(`select t::text as row from "${table_name}" t`))) {
      if (needles.some((n) => row.toLowerCase().includes(n.toLowerCase()))) found.push({ table: table_name, row });
    }
  }
  return found;
}
