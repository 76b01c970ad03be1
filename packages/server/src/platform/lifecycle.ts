import type { FastifyInstance } from 'fastify';

/**
 * Whether this instance should get traffic (`ctx.lifecycle`). `ready` turns true once the app is ready and
 * false when it starts closing; a graceful shutdown sets it false first thing on SIGTERM, so
 * `/api/health/ready` answers 503 and the load balancer stops sending requests while in-flight ones finish.
 */
export interface Lifecycle {
  ready: boolean;
}

export function createLifecycle(): Lifecycle {
  return { ready: false };
}

export function installLifecycle(app: FastifyInstance, lifecycle: Lifecycle): void {
  app.addHook('onReady', async () => {
    lifecycle.ready = true;
  });
  app.addHook('preClose', async () => {
    lifecycle.ready = false;
  });
}
