import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/connect.ts';
import { serverRoot } from './built-entry.ts';
import { dropPostgres, makePostgres } from './postgres-databases.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated, closed PGlite data dir that test apps copy (the PGlite leg only). */
    pgliteTemplateDir: string;
    /** A migrated PostgreSQL database that test apps are created from (the PostgreSQL leg only). */
    pgTemplateDatabase: string;
  }
}

/**
 * Builds the server when its sources are newer than its build. Migrates one database for the whole run; each test
 * app copies it (PGlite: the data dir, instead of initdb; PostgreSQL: CREATE DATABASE … TEMPLATE) instead of
 * running the migrations again.
 */
export default async function setup(project: TestProject) {
  // The tests that start servers, the backup CLIs or a crash child start them from the build (built-entry.ts).
  const built = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', "const m = await import('./scripts/lib.mjs'); m.buildServer();"],
    { cwd: path.resolve(serverRoot, '../..'), stdio: 'inherit' },
  );
  if (built.status !== 0) throw new Error('building the server failed');
  const base = process.env.TEST_DATABASE_URL;
  if (base) {
    const template = await makePostgres(base);
    const database = await openDatabase({ databaseUrl: template.url, dataDir: tmpdir() });
    await database.close();
    project.provide('pgTemplateDatabase', template.name);
    return () => dropPostgres(base, template.name);
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sb-template-'));
  const database = await openDatabase({ dataDir });
  await database.close();
  project.provide('pgliteTemplateDir', path.join(dataDir, 'db'));
  return () => rm(dataDir, { recursive: true, force: true });
}
