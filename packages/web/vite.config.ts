import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// react-router's package exports point every bundler at its development build (dev warnings kept in);
// the production build is the same code without them.
const reactRouterProduction = fileURLToPath(
  new URL('../../node_modules/react-router/dist/production/index.mjs', import.meta.url),
);

export default defineConfig(({ command }) => ({
  plugins: [react()],
  resolve: {
    alias: command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [],
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:3000', ws: true } },
  },
  // The server puts each page's CSP nonce in place of this (platform/security-headers.ts).
  html: { cspNonce: '__CSP_NONCE__' },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // Lists each chunk's imports: the bundle-size e2e test follows the log-in route's through it.
    manifest: true,
    // Every browser the app supports has <link rel="modulepreload">; the polyfill would be dead weight.
    modulePreload: { polyfill: false },
    // A few KB smaller than esbuild's output on the first load (packages/e2e/src/bundle-size.e2e.ts).
    minify: 'terser',
    terserOptions: { module: true, compress: { passes: 2 } },
  },
}));
