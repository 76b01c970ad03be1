import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { THEME_COLORS } from './src/app/theme.ts';
import { precompress } from './vite-precompress.ts';

// react-router's package exports point every bundler at its development build (dev warnings kept in);
// the production build is the same code without them.
const reactRouterProduction = fileURLToPath(
  new URL('../../node_modules/react-router/dist/production/index.mjs', import.meta.url),
);

const zodJitless = fileURLToPath(new URL('src/lib/zod.ts', import.meta.url));

/** The browser's title bar and splash screen before the app runs (light); app/theme-color.tsx follows the scheme. */
const themeColor = THEME_COLORS.light;

/**
 * index.html gets the theme colour, the iOS home-screen icon, and a version (a hash of every built file's name,
 * which are content hashes): the app tells the student once when it runs a new one (app/pwa/update-notice.ts).
 */
function pwaHead(): Plugin {
  return {
    name: 'studybuddy-pwa-head',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const files = Object.keys(ctx.bundle ?? {}).sort();
        const version = createHash('sha256').update(files.join('\n')).digest('base64url').slice(0, 16);
        return [
          { tag: 'meta', attrs: { name: 'theme-color', content: themeColor }, injectTo: 'head' },
          {
            tag: 'link',
            attrs: { rel: 'apple-touch-icon', href: '/icons/apple-touch-icon-180.png' },
            injectTo: 'head',
          },
          ...(ctx.bundle
            ? [{ tag: 'meta', attrs: { name: 'app-version', content: version }, injectTo: 'head' as const }]
            : []),
        ];
      },
    },
  };
}

export default defineConfig(({ command }) => ({
  plugins: [
    react(),
    pwaHead(),
    // The service worker (src/sw.ts): precaches the app shell and static files, pages network-first with the
    // cached shell offline, and shows push notices. main.tsx registers it.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      injectRegister: false,
      manifest: {
        id: '/',
        name: 'StudyBuddy',
        short_name: 'StudyBuddy',
        description: 'Find study partners at your university.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: themeColor,
        background_color: '#ffffff',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        // A classic worker script: every browser with service workers runs it.
        rollupFormat: 'iife',
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        // The Canvas tutorial video is fetched when watched, not installed with the app.
        globIgnores: ['tutorial/**'],
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
    precompress(),
  ],
  resolve: {
    alias: [
      // zod with its eval-free setting, for every module that imports it (src/lib/zod.ts).
      { find: /^zod$/, replacement: zodJitless },
      ...(command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : []),
    ],
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
