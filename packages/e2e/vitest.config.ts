import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.e2e.ts'],
    testTimeout: 90_000,
    hookTimeout: 90_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
