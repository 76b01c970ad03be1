import { defineConfig } from 'vitest/config';

// `npm run test:container`: builds the images with podman and runs them (minutes), so it is not part of `npm test`.
export default defineConfig({
  test: {
    include: ['src/**/*.podman.ts'],
    testTimeout: 3_600_000,
    hookTimeout: 3_600_000,
    retry: 0,
    pool: 'forks',
    maxWorkers: 1,
  },
});
