import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The app bundles tus-js-client's browser build (XMLHttpRequest, Blob); Node would otherwise get its Node build.
const tusBrowser = fileURLToPath(new URL('../../node_modules/tus-js-client/lib.esm/browser/index.js', import.meta.url));

// The web's unit tests: its stateful modules in a simulated browser (happy-dom), one file per module.
export default defineConfig({
  resolve: { alias: [{ find: /^tus-js-client$/, replacement: tusBrowser }] },
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    // The page's own origin (sockets and API calls are built from it).
    environmentOptions: { happyDOM: { url: 'http://localhost:3000/' } },
    // Unhandled timers and sockets of one file never reach the next.
    isolate: true,
    // The import-boundaries test starts ESLint (about 2 s here, 10 s on a loaded machine): never a 5 s race.
    testTimeout: 30_000,
  },
});
