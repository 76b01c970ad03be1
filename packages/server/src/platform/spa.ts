import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { MSG } from '@studybuddy/shared/messages';
import { errorBody } from './errors.ts';

/** Serves the built web app; unknown /api paths answer 404 JSON, other unknown paths get index.html (the SPA routes them). */
export async function installSpa(app: FastifyInstance, webDist: string | undefined): Promise<void> {
  const root = webDist && existsSync(path.join(webDist, 'index.html')) ? path.resolve(webDist) : undefined;
  if (root) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      setHeaders(res, file) {
        const hashed = file.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0]!;
    if (!root || url.startsWith('/api/') || url === '/api' || !['GET', 'HEAD'].includes(request.method)) {
      return reply.status(404).send(errorBody('not_found', MSG.api.notFound));
    }
    const file = url.slice(1);
    if (file && !file.includes('..') && existsSync(path.join(root, file)) && path.extname(file)) {
      return reply.sendFile(file);
    }
    reply.header('Cache-Control', 'no-cache');
    return reply.type('text/html').sendFile('index.html');
  });
}
