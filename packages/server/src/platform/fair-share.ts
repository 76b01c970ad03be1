import { createHash } from 'node:crypto';
import type {} from '@fastify/cookie'; // request.cookies
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MSG } from '@studybuddy/shared/messages';
import { WS_PATH } from '@studybuddy/shared/realtime';
import { AppError } from './errors.ts';

/**
 * How many API requests one client may have in work at once. A browser never has more than a handful in flight,
 * so the caps are invisible to a student; a script firing a thousand requests at once gets them served a few at a
 * time, in turn with everyone else's, instead of filling the database queue, the thread pool and the event loop
 * ahead of every other student (and of the health probe). Past the waiting room the answer is 429.
 */
export interface FairShareLimits {
  /** In work at once per session (or per IP without one). REQUESTS_IN_FLIGHT_PER_CLIENT */
  perClient: number;
  /** In work at once per IP, all sessions behind it together (a campus NAT: raise it). REQUESTS_IN_FLIGHT_PER_IP */
  perIp: number;
  /** Requests one gate lets wait before it answers 429. */
  waiting: number;
}

class Gate {
  active = 0;
  readonly queue: Array<() => void> = [];
}

/** Counting semaphores by key; a gate exists only while something holds or waits for it. */
export class Gates {
  private readonly gates = new Map<string, Gate>();

  /** Resolves once a place is free (true), or at once with false when the waiting room is full. */
  acquire(key: string, limit: number, waiting: number): { granted: Promise<boolean>; cancel: () => void } {
    let gate = this.gates.get(key);
    if (!gate) {
      gate = new Gate();
      this.gates.set(key, gate);
    }
    if (gate.active < limit) {
      gate.active++;
      return { granted: Promise.resolve(true), cancel: () => {} };
    }
    if (gate.queue.length >= waiting) return { granted: Promise.resolve(false), cancel: () => {} };
    const g = gate;
    let wake: () => void = () => {};
    let drop: () => void = () => {};
    const granted = new Promise<boolean>((resolve) => {
      wake = () => resolve(true);
      drop = () => resolve(false);
      g.queue.push(wake);
    });
    /** Leaves the waiting room (the client went away); the promise answers false. */
    const cancel = () => {
      const i = g.queue.indexOf(wake);
      if (i < 0) return;
      g.queue.splice(i, 1);
      drop();
    };
    return { granted, cancel };
  }

  /** Hands the place to the next waiter, or frees it. */
  release(key: string): void {
    const gate = this.gates.get(key);
    if (!gate) return;
    const next = gate.queue.shift();
    if (next) return next();
    gate.active--;
    if (gate.active <= 0) this.gates.delete(key);
  }

  /** Places held on a key (waiters not counted). */
  active(key: string): number {
    return this.gates.get(key)?.active ?? 0;
  }

  get size(): number {
    return this.gates.size;
  }
}

/**
 * A WebSocket opening on /api/ws: Node hands a request to the upgrade path only with `Connection: upgrade`, and the
 * socket library accepts only `Upgrade: websocket`. Any other request with an Upgrade header is an ordinary one.
 */
export function isSocketUpgrade(request: FastifyRequest): boolean {
  const { connection, upgrade } = request.headers;
  return (
    request.method === 'GET' &&
    request.routeOptions.url === WS_PATH &&
    upgrade?.toLowerCase() === 'websocket' &&
    !!connection &&
    connection.split(',').some((token) => token.trim().toLowerCase() === 'upgrade')
  );
}

/** Health, metrics and the WebSocket (which has its own per-student cap and lives for hours) pass freely. */
function exempt(request: FastifyRequest): boolean {
  const url = request.url;
  return (
    !url.startsWith('/api/') ||
    url.startsWith('/api/health') ||
    url.startsWith('/api/metrics') ||
    isSocketUpgrade(request)
  );
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A tighter per-client cap for a costly route (e.g. search, whose queries hold the embedded database): one
     * client's burst then queues at most this many of them ahead of everyone else's database work.
     */
    inFlightPerClient?: number;
  }
}

/** Installs the gates; call after the cookie parser and before anything that reads the database per request. */
export function installFairShare(app: FastifyInstance, limits: FairShareLimits, sessionCookie: string): Gates {
  const gates = new Gates();
  app.addHook('onRequest', async (request, reply) => {
    if (exempt(request)) return;
    const ip = `ip:${request.ip}`;
    const token = request.cookies[sessionCookie];
    // The narrowest gate first: a flood then holds at most perClient of its IP's places, not all of them.
    const client = token ? `s:${createHash('sha256').update(token).digest('base64url')}` : `${ip}:anonymous`;
    const keys: Array<[string, number]> = [
      [client, limits.perClient],
      [ip, limits.perIp],
    ];
    const routeCap = request.routeOptions.config.inFlightPerClient;
    if (routeCap !== undefined) keys.unshift([`${client} ${request.routeOptions.url}`, routeCap]);
    const held: string[] = [];
    let closed = false;
    let waiting: (() => void) | null = null;
    const releaseAll = () => {
      for (const key of held.splice(0)) gates.release(key);
    };
    // 'close' fires when the answer is sent or the client goes away, whichever comes first.
    reply.raw.once('close', () => {
      closed = true;
      waiting?.();
      releaseAll();
    });
    for (const [key, limit] of keys) {
      const { granted, cancel } = gates.acquire(key, limit, limits.waiting);
      waiting = cancel;
      const ok = await granted;
      waiting = null;
      if (closed) {
        if (ok) gates.release(key);
        return reply.hijack(); // nobody is left to answer
      }
      if (!ok) {
        releaseAll();
        throw new AppError(429, 'rate_limited', MSG.api.rateLimited);
      }
      held.push(key);
    }
  });
  return gates;
}
