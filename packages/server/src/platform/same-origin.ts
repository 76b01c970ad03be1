import type { FastifyInstance } from 'fastify';
import { forbidden } from './errors.ts';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Refuses state-changing API calls sent by pages of other origins (CSRF defence beside SameSite cookies). */
export function installSameOriginGuard(app: FastifyInstance, publicUrl: string): void {
  const allowed = new URL(publicUrl).origin;
  app.addHook('onRequest', async (request) => {
    if (SAFE.has(request.method) || !request.url.startsWith('/api/')) return;
    if (request.headers['sec-fetch-site'] === 'cross-site') throw forbidden('Cross-site requests are not allowed.');
    const origin = request.headers.origin;
    if (!origin) return;
    const own = `${request.protocol}://${request.headers.host ?? ''}`;
    if (origin !== allowed && origin !== own) throw forbidden('Cross-site requests are not allowed.');
  });
}
