import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/connect.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated, closed PGlite data dir that test apps copy (the PGlite leg only). */
    pgliteTemplateDir: string;
  }
}

/** Migrates one embedded database for the whole run; each test app copies it instead of running initdb again. */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) return;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sb-template-'));
  const database = await openDatabase({ dataDir });
  await database.close();
  project.provide('pgliteTemplateDir', path.join(dataDir, 'db'));
  return () => rm(dataDir, { recursive: true, force: true });
}
