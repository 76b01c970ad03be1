import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Db } from '../db/connect.ts';
import { bumpCounter } from './counters.repository.ts';
import { sha256 } from './passwords.ts';

/** What @fastify/rate-limit hands `child`: the route's merged limit options, with the route itself. */
interface ChildOptions {
  routeInfo?: { method?: string | string[]; url?: string };
}

/**
 * A store for @fastify/rate-limit that counts the per-route limits (`config.rateLimit` of a route) in the shared
 * `rate_limits` table, so several instances on one PostgreSQL database count every hit once: one upsert per hit
 * (`bumpCounter`, a fixed window like the in-memory store's). Keys are hashes of the route and the limit's key
 * (a student id or an IP). Rows are reused per key; the sign-in limits' clean-up forgets long-ended windows.
 * Neither `continueExceeding` nor `exponentialBackoff` is supported (no route uses them).
 */
export function sharedRateLimitStore(db: Db, now: () => Date = () => new Date()): FastifyRateLimitStoreCtor {
  class SharedRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options: object,
      private readonly scope = '',
    ) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow = 60_000,
    ): void {
      const at = now();
      bumpCounter(db, sha256(`route-limit:${this.scope}:${key}`), at, timeWindow).then(
        (c) => callback(null, { current: c.count, ttl: Math.max(0, c.windowEndsAt.getTime() - at.getTime()) }),
        (err: Error) => callback(err),
      );
    }

    child(routeOptions: object): FastifyRateLimitStore {
      const route = (routeOptions as ChildOptions).routeInfo;
      return new SharedRateLimitStore(routeOptions, `${String(route?.method ?? '')} ${route?.url ?? ''}`);
    }
  }
  return SharedRateLimitStore;
}
