import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { MSG } from '@studybuddy/shared/messages';
import { errorBody } from './errors.ts';
import { CSP_NONCE_PLACEHOLDER, contentSecurityPolicy, newCspNonce } from './security-headers.ts';

/** Serves the built web app; unknown /api paths answer 404 JSON, other unknown paths get index.html (the SPA routes them). */
export async function installSpa(app: FastifyInstance, webDist: string | undefined, publicUrl: string): Promise<void> {
  const root = webDist && existsSync(path.join(webDist, 'index.html')) ? path.resolve(webDist) : undefined;
  const indexHtml = root ? readFileSync(path.join(root, 'index.html'), 'utf8') : '';
  /** Each page gets its own style nonce, in its CSP and in the page (Mantine reads it from the csp-nonce meta). */
  const sendIndex = (reply: FastifyReply) => {
    const nonce = newCspNonce();
    return reply
      .header('Cache-Control', 'no-cache')
      .header('Content-Security-Policy', contentSecurityPolicy(publicUrl, nonce))
      .type('text/html; charset=utf-8')
      .send(indexHtml.replaceAll(CSP_NONCE_PLACEHOLDER, nonce));
  };
  if (root) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      allowedPath: (pathName) => pathName !== '/index.html',
      // The build writes a .br and a .gz beside each text file (packages/web/vite-precompress.ts): sent by the
      // browser's Accept-Encoding, with Vary: Accept-Encoding, and never compressed per request.
      preCompressed: true,
      // Ours alone (send's own `public, max-age=0` would replace it): hashed assets forever, the rest — the
      // service worker /sw.js above all, so that updates are found — checked on every use.
      cacheControl: false,
      setHeaders(res, file) {
        const hashed = file.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
        // A cache keeps the Brotli, gzip and plain copies apart.
        res.setHeader('Vary', 'Accept-Encoding');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0]!;
    if (!root || url.startsWith('/api/') || url === '/api' || !['GET', 'HEAD'].includes(request.method)) {
      return reply.status(404).send(errorBody('not_found', MSG.api.notFound));
    }
    const file = url.slice(1);
    if (
      file &&
      file !== 'index.html' &&
      !file.includes('..') &&
      existsSync(path.join(root, file)) &&
      path.extname(file)
    ) {
      return reply.sendFile(file);
    }
    return sendIndex(reply);
  });
}
