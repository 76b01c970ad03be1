import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MSG } from '@studybuddy/shared/messages';
import type { MetricsConfig } from '../../config.ts';
import type { AppContext } from '../context.ts';
import { errorBody } from '../errors.ts';
import { errorResponses } from '../openapi.ts';
import type { Metrics } from './metrics.ts';
import { processMetrics } from './process-metrics.ts';

export const METRICS_PATH = '/metrics';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the Authorization header carries the bearer token (compared in constant time). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return !!match && timingSafeEqual(digest(match[1]!), digest(token));
}

/** The separate listener of METRICS_PORT: `/metrics` only, token checked when one is set too. */
async function startListener(config: MetricsConfig, metrics: Metrics, port: number) {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const send = (status: number, body: string, type: string, extra: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', ...extra }).end(body);
    };
    const json = (status: number, code: string, message: string, extra?: Record<string, string>) =>
      send(status, JSON.stringify(errorBody(code, message)), 'application/json; charset=utf-8', extra);
    if (req.url?.split('?')[0] !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      return json(404, 'not_found', MSG.api.notFound);
    }
    if (config.token && !bearerMatches(req.headers.authorization, config.token)) {
      return json(401, 'unauthenticated', MSG.api.unauthenticated, { 'WWW-Authenticate': 'Bearer' });
    }
    metrics.text().then(
      (text) => send(200, req.method === 'HEAD' ? '' : text, metrics.contentType),
      () => json(500, 'internal', MSG.api.internal),
    );
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  metrics.listenerUrl = `http://${host}:${address.port}${METRICS_PATH}`;
  return server;
}

/**
 * Request latency for every route (an onResponse hook on the root, labelled by the route's pattern), and
 * `/metrics`: on the main port only with METRICS_TOKEN (a bearer token), on METRICS_PORT (default host
 * 127.0.0.1) for scrapers on the machine or a private network. With neither, `/metrics` answers 404.
 */
export function installMetrics(app: FastifyInstance, ctx: AppContext): void {
  const { metrics } = ctx;
  const config = ctx.config.metrics;

  app.addHook('onResponse', async (request, reply) => {
    metrics.observeRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
  });

  // Process metrics (event-loop delay among them) are measured from the start when they can be scraped.
  if (config.token || config.port !== undefined) processMetrics();

  const schema = {
    summary: 'Prometheus metrics (with METRICS_TOKEN as a bearer token; otherwise 404 here, see METRICS_PORT)',
    tags: ['operations'],
    security: [{ metricsToken: [] }],
    response: {
      200: { description: 'Prometheus text format', content: { 'text/plain': { schema: z.string() } } },
      ...errorResponses,
    },
  };
  app.get(METRICS_PATH, { schema }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (!config.token) return reply.status(404).send(errorBody('not_found', MSG.api.notFound));
    if (!bearerMatches(request.headers.authorization, config.token)) {
      return reply
        .status(401)
        .header('WWW-Authenticate', 'Bearer')
        .send(errorBody('unauthenticated', MSG.api.unauthenticated));
    }
    return reply.type(metrics.contentType).send(await metrics.text());
  });

  const port = config.port;
  if (port !== undefined) {
    let listener: Awaited<ReturnType<typeof startListener>> | undefined;
    app.addHook('onReady', async () => {
      listener = await startListener(config, metrics, port);
      ctx.log.info({ url: metrics.listenerUrl }, 'metrics listening');
    });
    app.addHook('onClose', async () => {
      if (!listener) return;
      listener.closeAllConnections();
      await new Promise((resolve) => listener!.close(resolve));
    });
  }
}
