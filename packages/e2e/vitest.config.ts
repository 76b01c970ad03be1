import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.e2e.ts'],
    testTimeout: 90_000,
    hookTimeout: 180_000,
    // A journey that fails once on a starved machine gets one more try; a real defect fails both.
    retry: 1,
    pool: 'forks',
    globalSetup: ['src/global-setup.ts'],
    setupFiles: ['src/csp-setup.ts'],
    maxWorkers: 2,
  },
});
