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
    // Measured on the whole PGlite stage at load 11-16 (seconds, 2026-11-28, issue 32): backup-schedule 149,
    // graceful-restart 90, document-crash 75, connection-guard 48, backup 46, upload-content 32, documents-canvas 28,
    // job-queue 28, request-context 26, documents-quotas 26. The stage: 635 s wall, 1,179 s summed over files.
    // backup-schedule has since been split in two (37 + 36 s alone at load 8, both at once).
    sequence: {
      sequencer: slowestFirst([
        'graceful-restart.test.ts',
        'document-crash.test.ts',
        'backup-schedule-live.test.ts',
        'backup-schedule.test.ts',
        'connection-guard.test.ts',
        'backup.test.ts',
        'upload-content.test.ts',
        'documents-canvas.test.ts',
        'job-queue.test.ts',
        'request-context.test.ts',
        'documents-quotas.test.ts',
      ]),
    },
  },
});
