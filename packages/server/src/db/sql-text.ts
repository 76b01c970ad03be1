import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

const dialect = new PgDialect();

/**
 * The text of an SQL fragment without parameters (table names and column references only), for a statement
 * that is written once and prepared (the chat batch write). Throws when the fragment carries a parameter.
 */
export function sqlText(fragment: SQL): string {
  const { sql, params } = dialect.sqlToQuery(fragment);
  if (params.length) throw new Error(`an SQL fragment with parameters cannot be inlined: ${sql}`);
  return sql;
}
