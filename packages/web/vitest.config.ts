import { defineConfig } from 'vitest/config';

// The web's unit tests: its stateful modules in a simulated browser (happy-dom), one file per module.
export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    // The page's own origin (sockets and API calls are built from it).
    environmentOptions: { happyDOM: { url: 'http://localhost:3000/' } },
    // Unhandled timers and sockets of one file never reach the next.
    isolate: true,
  },
});
