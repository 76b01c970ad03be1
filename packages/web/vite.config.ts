import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:3000', ws: true } },
  },
  // The server puts each page's CSP nonce in place of this (platform/security-headers.ts).
  html: { cspNonce: '__CSP_NONCE__' },
  build: { outDir: 'dist', sourcemap: true },
});
