import { createHash, randomBytes } from 'node:crypto';
import type { Db } from './connect.ts';

/** A statement written once and prepared on each connection (planned once, not per call): its name and text. */
export interface PreparedStatement {
  name: string;
  text: string;
}

/** Names the statement by its text: a connection that prepared one text never gets another under the same name. */
export function preparedStatement(prefix: string, text: string): PreparedStatement {
  return { name: `${prefix}_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`, text };
}

interface PgliteClient {
  exec(query: string): Promise<{ rows: unknown[] }[]>;
}
interface PgPool {
  totalCount: number;
  query<T>(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: T[] }>;
}

/** The statements prepared in PGlite's one session, by session. */
const preparedIn = new WeakMap<object, Set<string>>();

/**
 * Runs a prepared statement with one text parameter ($1) and answers its rows. node-postgres prepares named
 * statements on each pooled connection by itself; PGlite (one session) gets a PREPARE once and then EXECUTE with
 * the value as a dollar-quoted literal (EXECUTE takes no bind parameters), over the simple protocol (one call into
 * PGlite instead of five).
 */
export async function runPrepared<T>(db: Db, statement: PreparedStatement, value: string): Promise<T[]> {
  const client = (db as unknown as { $client: PgliteClient | PgPool }).$client;
  const { name, text } = statement;
  if ('totalCount' in client) return (await client.query<T>({ name, text, values: [value] })).rows;
  const pglite = client;
  let prepared = preparedIn.get(pglite);
  if (!prepared) preparedIn.set(pglite, (prepared = new Set()));
  if (!prepared.has(name)) {
    await pglite.exec(`prepare ${name} (text) as ${text}`);
    prepared.add(name);
  }
  let tag: string;
  do tag = `$p${randomBytes(8).toString('hex')}$`;
  while (value.includes(tag));
  const [result] = await pglite.exec(`execute ${name} (${tag}${value}${tag})`);
  return (result?.rows ?? []) as T[];
}
