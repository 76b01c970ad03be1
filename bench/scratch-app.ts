import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { dropPostgres, makePostgres } from '../packages/server/src/test/postgres-databases.ts';

export interface ScratchApp {
  app: Awaited<ReturnType<typeof buildApp>>;
  dataDir: string;
  /** The scratch PostgreSQL database's address (undefined on PGlite). */
  databaseUrl: string | undefined;
  /** Closes the app and removes its data dir and database; with `keep`, leaves them and says where they are. */
  close(): Promise<void>;
}

/**
 * A benchmark's app on a fresh data dir: PGlite there, or with `pgBase` (a PostgreSQL server's address) on a new
 * scratch database of that server. `keep` leaves both afterwards (to EXPLAIN the queries).
 */
export async function scratchApp(pgBase: string | undefined, { keep = false } = {}): Promise<ScratchApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sb-bench-'));
  const database = pgBase ? await makePostgres(pgBase) : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(database ? { DATABASE_URL: database.url } : {}),
  });
  const app = await buildApp(config, { logger: false });
  return {
    app,
    dataDir,
    databaseUrl: database?.url,
    async close() {
      await app.close();
      if (keep) return console.log(database ? `database kept: ${database.url}` : `data dir kept: ${dataDir}`);
      await rm(dataDir, { recursive: true, force: true });
      if (database) await dropPostgres(pgBase!, database.name);
    },
  };
}
