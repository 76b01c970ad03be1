import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { buildApp, type App, type BuildOptions } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import { copyTree } from './copy-tree.ts';
import { makePostgres, dropPostgres } from './postgres-databases.ts';

/**
 * The PostgreSQL leg: when TEST_DATABASE_URL is set, each test app gets a fresh database with a random name on that
 * server, copied from global-setup.ts's migrated template, dropped afterwards. Otherwise PGlite in a temp folder.
 */
export async function freshPostgres(): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return undefined;
  const made = await makePostgres(base, inject('pgTemplateDatabase'));
  return { url: made.url, drop: () => dropPostgres(base, made.name) };
}

/**
 * Puts a copy of global-setup.ts's migrated PGlite database in `dataDir` (initdb and the migrations take seconds
 * each time); nothing when the dir has a database already or when the run is the PostgreSQL leg.
 */
export async function copyMigratedDatabase(dataDir: string): Promise<void> {
  const template = inject('pgliteTemplateDir');
  const dbDir = path.join(dataDir, 'db');
  if (template && !existsSync(dbDir)) await copyTree(template, dbDir);
}

export interface TestApp {
  app: App;
  config: Config;
  close(): Promise<void>;
}

/** Builds the real app on a temp data dir and a fresh database; `env` overrides configuration. */
export async function createTestApp(env: Record<string, string> = {}, options: BuildOptions = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sb-test-'));
  const pgDb = await freshPostgres();
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://localhost:3000',
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    ...env,
  });
  if (!config.databaseUrl) await copyMigratedDatabase(config.dataDir);
  const app = await buildApp(config, { logger: false, ...options });
  return {
    app,
    config,
    async close() {
      await app.close();
      await pgDb?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
