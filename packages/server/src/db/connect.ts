import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { turnForQuery } from './io-turns.ts';
import { migrationsFolder } from './migrations-folder.ts';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Whether transactions run side by side (PostgreSQL's pool), so values of one sequence may commit out of order
   * and writes of unrelated rows may overlap; PGlite has one connection and runs them one after the other.
   */
  concurrent: boolean;
  /** Runs a trivial query; throws when the database does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Connections of the PostgreSQL pool (PGlite has one connection and no pool). */
  poolStats?(): { total: number; idle: number; waiting: number };
}

/** Any number for pg_advisory_lock, the same in every instance: the key of "migrating StudyBuddy's schema". */
const MIGRATION_LOCK = 741_852_963;

/**
 * Applies the migrations one instance at a time: several instances starting together on one database (a rolling
 * deploy, a scaled-up service) would otherwise race to create the same tables. The others wait, then find nothing
 * left to apply.
 */
async function migrateExclusively(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

/** PostgreSQL when a URL is given, else PGlite in `DATA_DIR/db` (or in memory for `memory://`). Applies migrations. */
export async function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  if (opts.databaseUrl) {
    // A connection that cannot be made within 5 s fails its request (a 503) instead of holding it.
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10, connectionTimeoutMillis: 5000 });
    // An idle connection the server ends (restart, or a dropped test database right after close()) must not
    // crash the process: the pool replaces it on the next query.
    pool.on('error', () => undefined);
    // Nor one in use between two queries (a transaction waiting on other work) when its backend ends
    // (pg_terminate_backend, a restart): nobody listens to that client's 'error' then, which would crash the
    // process. Its transaction's next query fails (a 503), and the pool drops it when it is released.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = drizzlePg(pool, { schema });
    await migrateExclusively(pool);
    return {
      db: db,
      kind: 'postgres',
      concurrent: true,
      ping: async () => void (await pool.query('select 1')),
      close: () => pool.end(),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    };
  }
  const dir = path.join(opts.dataDir, 'db');
  mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir);
  const direct = takeTurnsWithIo(client);
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  return {
    db: db,
    kind: 'pglite',
    concurrent: false,
    // Not behind the queue of the app's queries (as a pool's spare connection answers on PostgreSQL): the probe asks
    // whether the database answers, and waits only for the statement or transaction running now.
    ping: async () => void (await direct('select 1')),
    close: () => client.close(),
  };
}

/**
 * PGlite runs each query synchronously on this thread and hands its lock to the next waiter in a microtask, so a
 * queue of queries or transactions runs back to back without the event loop reading a single socket in between:
 * a few students' bursts stall every other request (and the health probe) for the whole queue. Queries here take
 * turns with I/O instead: plain queries one at a time, each after a macrotask hop; inside a transaction (which
 * holds PGlite's lock) each query hops before it runs, so sockets are read between any two queries either way. A hop
 * also lets a burst of waiting connections be accepted first (io-turns.ts).
 */
const hop = turnForQuery;

/** Returns PGlite's own query function, which waits only for PGlite's lock (for the health probe). */
function takeTurnsWithIo(client: PGlite): PGlite['query'] {
  const query = client.query.bind(client);
  let tail: Promise<unknown> = Promise.resolve();
  client.query = ((...args: Parameters<typeof query>) => {
    const run = tail.then(hop).then(() => query(...args));
    tail = run.catch(() => undefined);
    return run;
  }) as typeof client.query;

  const transaction = client.transaction.bind(client);
  client.transaction = ((fn: Parameters<typeof transaction>[0]) =>
    transaction((tx) => {
      const txQuery = tx.query.bind(tx);
      tx.query = ((...args: Parameters<typeof txQuery>) => hop().then(() => txQuery(...args))) as typeof tx.query;
      return fn(tx);
    })) as typeof client.transaction;
  return query;
}
