import { defineConfig } from 'vitest/config';
import { slowestFirst } from '../../scripts/slowest-first.mjs';

export default defineConfig({
  test: {
    include: ['src/**/*.e2e.ts'],
    // A limit for a hung journey, not a speed: on a 2-core machine whose CPU does less per second than the one these
    // were first measured on, the longest journeys took 60-90 s with three running (issue 32).
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // No second tries: a journey that fails on a busy machine waits for a time instead of a state, and is fixed
    // (npm run test:stress -- e2e finds them).
    retry: 0,
    // expect.poll waits for a state: its default 1 s is a wall-clock window a busy machine overruns.
    expect: { poll: { timeout: 15_000, interval: 50 } },
    pool: 'forks',
    // A worker runs its files one after another in one process (playwright-core and the helpers imported once, not
    // once per file). Journeys share no module state but the CSP log, which each test empties.
    isolate: false,
    globalSetup: ['src/global-setup.ts'],
    setupFiles: ['src/csp-setup.ts'],
    // Journeys mostly wait (on Chromium, their servers, timers): with one core kept busy by another process the stage
    // took 956 s on 2 workers and 744 s on 3 (CPU 596 s: close to what one free core gives; 2026-11-28).
    maxWorkers: 3,
    // Measured at load 10-20 (seconds): production 319, lms 104, calendar 86, auth-signup 81, uploads 77.
    sequence: {
      sequencer: slowestFirst([
        'production.e2e.ts',
        'lms.e2e.ts',
        'calendar.e2e.ts',
        'auth-signup.e2e.ts',
        'uploads.e2e.ts',
      ]),
    },
  },
});
