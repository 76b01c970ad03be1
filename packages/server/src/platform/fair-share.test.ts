import Fastify from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MSG } from '@studybuddy/shared/messages';
import { installErrorHandling } from './errors.ts';
import { Gates, installFairShare } from './fair-share.ts';

async function gatedApp(limits = { perClient: 3, perIp: 5, waiting: 20 }) {
  const app = Fastify({ logger: false });
  installErrorHandling(app);
  await app.register(fastifyCookie);
  const gates = installFairShare(app, limits, 'sb_session');
  let inWork = 0;
  const peak = new Map<string, number>();
  const releases: Array<() => void> = [];
  const slow = async (who: string) => {
    inWork++;
    peak.set(who, Math.max(peak.get(who) ?? 0, inWork));
    await new Promise<void>((resolve) => releases.push(resolve));
    inWork--;
    return { ok: true };
  };
  app.get('/api/slow', async (request) => slow(request.cookies.sb_session ?? 'anonymous'));
  // Stands in for the WebSocket route (its upgrade requests pass through the same hooks).
  app.get('/api/ws', async (request) => slow(request.cookies.sb_session ?? 'anonymous'));
  app.get('/api/costly', { config: { inFlightPerClient: 2 } }, async (request) =>
    slow(request.cookies.sb_session ?? 'anonymous'),
  );
  app.get('/api/health', async () => ({ status: 'ok' }));
  await app.ready();
  const drain = async () => {
    while (releases.length || gates.size) {
      releases.splice(0).forEach((r) => r());
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  return { app, gates, peak, releases, drain, inWork: () => inWork };
}

const tick = () => new Promise((r) => setTimeout(r, 20));

describe('fair share of API requests in work', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('keeps at most the per-client number of one session in work; the rest wait their turn and succeed', async () => {
    const t = await gatedApp();
    close = () => t.app.close();
    const answers = Array.from({ length: 12 }, () =>
      t.app.inject({ url: '/api/slow', cookies: { sb_session: 'student-a' } }),
    );
    await tick();
    expect(t.inWork()).toBe(3);
    // Health is never held back.
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
    await t.drain();
    const statuses = (await Promise.all(answers)).map((r) => r.statusCode);
    expect(statuses).toEqual(Array(12).fill(200));
    expect(t.peak.get('student-a')).toBe(3);
    expect(t.gates.size).toBe(0);
  });

  it('lets another student in while one floods, up to the per-IP cap', async () => {
    const t = await gatedApp();
    close = () => t.app.close();
    const flood = Array.from({ length: 10 }, () =>
      t.app.inject({ url: '/api/slow', cookies: { sb_session: 'flooder' } }),
    );
    await tick();
    const other = t.app.inject({ url: '/api/slow', cookies: { sb_session: 'student-b' } });
    await tick();
    // 3 of the flooder + 1 of the other student: the other did not queue behind the flood.
    expect(t.inWork()).toBe(4);
    await t.drain();
    expect((await other).statusCode).toBe(200);
    expect((await Promise.all(flood)).every((r) => r.statusCode === 200)).toBe(true);
  });

  it('caps all sessions of one IP together', async () => {
    const t = await gatedApp();
    close = () => t.app.close();
    const answers = ['a', 'b', 'c'].flatMap((who) =>
      Array.from({ length: 3 }, () => t.app.inject({ url: '/api/slow', cookies: { sb_session: who } })),
    );
    await tick();
    expect(t.inWork()).toBe(5);
    await t.drain();
    expect((await Promise.all(answers)).every((r) => r.statusCode === 200)).toBe(true);
  });

  it("holds a costly route to its own tighter cap per client, and the client's other requests still get in", async () => {
    const t = await gatedApp({ perClient: 4, perIp: 50, waiting: 20 });
    close = () => t.app.close();
    const costly = Array.from({ length: 10 }, () =>
      t.app.inject({ url: '/api/costly', cookies: { sb_session: 'searcher' } }),
    );
    await vi.waitFor(() => expect(t.inWork()).toBe(2));
    // The same student's ordinary request is not stuck behind their own costly ones.
    const other = t.app.inject({ url: '/api/slow', cookies: { sb_session: 'searcher' } });
    await vi.waitFor(() => expect(t.inWork()).toBe(3));
    await t.drain();
    expect((await Promise.all([...costly, other])).every((r) => r.statusCode === 200)).toBe(true);
    expect(t.peak.get('searcher')).toBe(3);
    expect(t.gates.size).toBe(0);
  });

  it('answers 429 once the waiting room is full, and frees every place afterwards', async () => {
    const t = await gatedApp({ perClient: 2, perIp: 50, waiting: 3 });
    close = () => t.app.close();
    const answers = Array.from({ length: 8 }, () => t.app.inject({ url: '/api/slow' }));
    await tick();
    await t.drain();
    const res = await Promise.all(answers);
    expect(res.filter((r) => r.statusCode === 200)).toHaveLength(5);
    const refused = res.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(3);
    expect(refused[0]!.json()).toMatchObject({ error: { code: 'rate_limited', message: MSG.api.rateLimited } });
    expect(t.gates.size).toBe(0);
  });
});

describe('fair share and the Upgrade header', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it.each([
    ['Upgrade: x', { upgrade: 'x' }],
    ['Upgrade: websocket without Connection: upgrade', { upgrade: 'websocket' }],
    ['Connection: upgrade, Upgrade: h2c', { connection: 'upgrade', upgrade: 'h2c' }],
  ])('caps a burst that sends %s like any other', async (_name, headers) => {
    const t = await gatedApp({ perClient: 2, perIp: 50, waiting: 3 });
    close = () => t.app.close();
    const answers = Array.from({ length: 8 }, () => t.app.inject({ url: '/api/slow', headers }));
    await tick();
    expect(t.inWork()).toBe(2);
    await t.drain();
    const statuses = (await Promise.all(answers)).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
  });

  it('lets only a WebSocket upgrade on /api/ws pass freely', async () => {
    const t = await gatedApp({ perClient: 2, perIp: 50, waiting: 3 });
    close = () => t.app.close();
    const upgrade = { connection: 'keep-alive, Upgrade', upgrade: 'WebSocket' };
    const elsewhere = Array.from({ length: 8 }, () => t.app.inject({ url: '/api/slow?x=/api/ws', headers: upgrade }));
    await tick();
    expect(t.inWork()).toBe(2);
    await t.drain();
    expect((await Promise.all(elsewhere)).filter((r) => r.statusCode === 429)).toHaveLength(3);

    const sockets = Array.from({ length: 8 }, () => t.app.inject({ url: '/api/ws?cursor=4', headers: upgrade }));
    await tick();
    expect(t.inWork()).toBe(8);
    await t.drain();
    expect((await Promise.all(sockets)).every((r) => r.statusCode === 200)).toBe(true);
  });
});

describe('Gates', () => {
  it('hands a freed place to the first waiter and drops a waiter that leaves', async () => {
    const gates = new Gates();
    expect(await gates.acquire('k', 1, 5).granted).toBe(true);
    const second = gates.acquire('k', 1, 5);
    const third = gates.acquire('k', 1, 5);
    second.cancel();
    expect(await second.granted).toBe(false);
    gates.release('k');
    expect(await third.granted).toBe(true);
    gates.release('k');
    expect(gates.size).toBe(0);
  });
});
