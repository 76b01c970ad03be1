import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { SERVER_COMMAND } from './server-command.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated, closed PGlite data dir that each started server copies. */
    pgliteTemplateDir: string;
  }
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Builds the server and the web app when their sources are newer than the build (`npm test` has built the web app
 * already), then migrates one embedded database for the run (the seed CLI with no users); servers start from copies
 * of it.
 */
export default async function setup(project: TestProject) {
  // Without Vitest's NODE_ENV=test, which would give the web build React's development bundle.
  const { NODE_ENV: _test, ...env } = process.env;
  const built = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', "const m = await import('./scripts/lib.mjs'); m.buildServer(); m.buildWeb();"],
    { cwd: root, stdio: 'inherit', env },
  );
  if (built.status !== 0) throw new Error('building the server or the web app failed');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sb-e2e-template-'));
  const made = spawnSync(process.execPath, [...SERVER_COMMAND.seed, '[]'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  if (made.status !== 0) throw new Error(`migrating the template database failed: ${made.stderr}`);
  project.provide('pgliteTemplateDir', path.join(dataDir, 'db'));
  return () => rm(dataDir, { recursive: true, force: true });
}
