import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Files share a worker's module cache: importing the whole app once per worker, not once per file. No test
    // mocks modules, and each test builds its own app, database and data dir.
    isolate: false,
    globalSetup: ['src/test/global-setup.ts'],
  },
});
