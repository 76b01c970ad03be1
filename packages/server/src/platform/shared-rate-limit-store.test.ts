import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimits } from '../db/schema.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { createUser } from '../test/users.ts';
import { sharedRateLimitStore } from './shared-rate-limit-store.ts';

const MINUTE = 60_000;

describe('per-route limits in the shared rate_limits table', () => {
  let t: TestApp;
  let clock = new Date('2030-01-01T00:00:00Z');
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** The store of one route as an instance would build it (@fastify/rate-limit calls `child` per route). */
  const routeStore = (method: string, url: string) => {
    const Store = sharedRateLimitStore(t.app.ctx.db, () => clock);
    return new Store({}).child({ routeInfo: { method, url } } as never);
  };
  // @fastify/rate-limit passes the route's window as well; the store's default is the routes' one minute.
  const incr = (store: FastifyRateLimitStore, key: string) =>
    new Promise<{ current: number; ttl: number }>((resolve, reject) =>
      store.incr(key, (err, result) => (err ? reject(err) : resolve(result!))),
    );

  it('counts the hits of one route and key together on every instance, in a fixed window', async () => {
    const [a, b, c] = [1, 2, 3].map(() => routeStore('POST', '/api/lms/connect'));
    expect((await incr(a!, 'u1')).current).toBe(1);
    expect((await incr(b!, 'u1')).current).toBe(2);
    clock = new Date(clock.getTime() + 20_000);
    expect(await incr(c!, 'u1')).toEqual({ current: 3, ttl: 40_000 });
    // Another key, another route: counted apart.
    expect((await incr(a!, 'u2')).current).toBe(1);
    expect((await incr(routeStore('POST', '/api/lms/courses'), 'u1')).current).toBe(1);
    // The window ends: a new one starts at 1.
    clock = new Date(clock.getTime() + 40_000);
    expect(await incr(b!, 'u1')).toEqual({ current: 1, ttl: MINUTE });
  });

  it('is the store on PostgreSQL only; PGlite keeps the in-process one', async () => {
    const before = (await t.app.ctx.db.select().from(rateLimits)).length;
    const u = await createUser(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/lms/connect',
      payload: {},
      headers: { cookie: u.cookie },
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['x-ratelimit-remaining']).toBe('9');
    const rows = (await t.app.ctx.db.select().from(rateLimits)).length;
    expect(rows - before).toBe(t.config.databaseUrl ? 1 : 0);
  });
});
