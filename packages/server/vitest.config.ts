import { defineConfig } from 'vitest/config';
import { slowestFirst } from '../../scripts/slowest-first.mjs';
import { databaseTestFiles } from './src/test/database-test-files.ts';

const postgresLeg = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    // The PostgreSQL leg runs the files where PostgreSQL behaves differently from PGlite (database-test-files.ts:
    // db/, other instances, locks, LISTEN/NOTIFY, full-text search, branches on the kind); PGlite runs the same SQL.
    include: postgresLeg ? databaseTestFiles(new URL('src', import.meta.url).pathname) : ['src/**/*.test.ts'],
    // Limits for a hung test, not for speed (benchmarks under bench/ measure that): a test that takes 20 s on a
    // quiet machine takes twice as long while another process keeps a core busy.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Vitest's default on 2 cores is one worker; much of this suite waits (timers, child processes, sockets).
    maxWorkers: 3,
    // Files share a worker's module cache: importing the whole app once per worker, not once per file. No test
    // mocks modules, and each test builds its own app, database and data dir.
    isolate: false,
    globalSetup: ['src/test/global-setup.ts'],
    // Measured at load 12-16 (seconds): document-crash 56, graceful-restart 36, s3-storage 32, persistence 30.
    sequence: {
      sequencer: slowestFirst([
        'document-crash.test.ts',
        'graceful-restart.test.ts',
        'three-instances.test.ts',
        'documents-bombs.test.ts',
        'demo-seed.test.ts',
        'documents-quotas.test.ts',
        'logger.test.ts',
      ]),
    },
  },
});
