import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

describe('liveness and readiness', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('says live and ready once started; not ready while shutting down, yet still live', async () => {
    t = await createTestApp();
    expect(t.app.ctx.lifecycle.ready).toBe(false);
    const live = await t.app.inject({ url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    expect(live.headers['cache-control']).toBe('no-store');

    const ready = await t.app.inject({ url: '/api/health/ready' });
    expect(t.app.ctx.lifecycle.ready).toBe(true);
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ok',
      ready: true,
      database: { status: 'up', ok: true },
      storage: { status: 'up', ok: true },
    });

    // What a graceful shutdown does first on SIGTERM.
    t.app.ctx.lifecycle.ready = false;
    const draining = await t.app.inject({ url: '/api/health/ready' });
    expect(draining.statusCode).toBe(503);
    expect(draining.json()).toEqual({ status: 'unavailable', ready: false });
    expect((await t.app.inject({ url: '/api/health/live' })).statusCode).toBe(200);
  });

  it('is not ready when the database does not answer, but stays live', async () => {
    t = await createTestApp();
    await t.app.ready();
    const database = t.app.ctx.database;
    await database.close();
    database.close = async () => {};
    const res = await t.app.inject({ url: '/api/health/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ ready: false, database: { status: 'down' }, storage: { status: 'up' } });
    expect((await t.app.inject({ url: '/api/health/live' })).statusCode).toBe(200);
  });

  it('turns not ready when the app starts closing', async () => {
    t = await createTestApp();
    await t.app.ready();
    expect(t.app.ctx.lifecycle.ready).toBe(true);
    const app = t.app;
    await t.close();
    t = undefined;
    expect(app.ctx.lifecycle.ready).toBe(false);
  });
});
