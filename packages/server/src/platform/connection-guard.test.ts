import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import fc from 'fast-check';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@studybuddy/shared/messages';
import type { TrustProxy } from '../config.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { createUser, type TestUser } from '../test/users.ts';
import { clientAddressOf, connectionGuardOf, type ConnectionGuard } from './connection-guard.ts';
import { WsTestClient } from './realtime/ws-test-client.ts';

/**
 * Issue 31 point 4, slow clients, on a listening server (the rules live on real sockets). Time is what these tests
 * are about, so they wait for it, with short settings and generous upper bounds for a busy machine.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Raw {
  socket: Socket;
  /** Everything the server sent. */
  data(): string;
  /** Resolves when the server (or an error) closed the connection: how long after connecting. */
  closed: Promise<number>;
  isClosed(): boolean;
}

function rawConnection(port: number, localAddress = '127.0.0.1'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    const started = performance.now();
    let data = '';
    let closedAt: number | null = null;
    socket.on('data', (d) => (data += d.toString()));
    socket.on('error', () => undefined);
    const closed = new Promise<number>((done) =>
      socket.once('close', () => {
        closedAt = performance.now() - started;
        done(closedAt);
      }),
    );
    socket.once('connect', () => resolve({ socket, data: () => data, closed, isClosed: () => closedAt !== null }));
    socket.once('error', reject);
  });
}

/** Writes `text` a few bytes at a time until the connection closes; resolves with the bytes written. */
function trickle(raw: Raw, text: string, bytes: number, everyMs: number): Promise<number> {
  let at = 0;
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (raw.isClosed() || at >= text.length) {
        clearInterval(timer);
        return resolve(at);
      }
      raw.socket.write(text.slice(at, at + bytes));
      at += bytes;
    }, everyMs);
  });
}

/** Resolves with the time it closed, or with null when it is still open after `limitMs`. */
const closedWithin = (raw: Raw, limitMs: number) =>
  Promise.race([raw.closed, sleep(limitMs).then(() => (raw.isClosed() ? 0 : null))]);

const statusOf = (text: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

async function listening(
  env: Record<string, string>,
  logLines?: string[],
): Promise<{ t: TestApp; port: number; base: string }> {
  const logStream = logLines && { write: (line: string) => void logLines.push(line) };
  const t = await createTestApp({ RATE_LIMITS: 'false', ...env }, logStream ? { logStream } : {});
  return { t, ...(await listen(t)) };
}
async function listen(t: TestApp) {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  return { port, base: `http://127.0.0.1:${port}` };
}

const FEEDBACK = '{"feedback":"Nice","rating":5}';
/** A feedback body long enough to be sent in parts. */
const SLOW_BODY = FEEDBACK + ' '.repeat(5000);

/**
 * `n` requests of one client forwarded by the test (the proxy), their bodies on the way (well above the minimum
 * rate, but not finished), once the guard counts them open.
 */
async function slowForwardedRequests(port: number, guard: ConnectionGuard, client: string, n: number): Promise<Raw[]> {
  const raws: Raw[] = [];
  for (let i = 0; i < n; i++) {
    const raw = await rawConnection(port);
    raw.socket.write(post('/api/feedback', SLOW_BODY.length, { 'x-forwarded-for': client }) + SLOW_BODY.slice(0, 100));
    raws.push(raw);
  }
  await until(`${n} requests open`, () => (guard.open(client) === n ? true : undefined));
  return raws;
}

const post = (path: string, length: number, headers: Record<string, string> = {}) =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n` +
  Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('') +
  '\r\n';

describe('slow clients: the header, body and idle rules', () => {
  let t: TestApp;
  let port: number;
  let base: string;
  let student: TestUser;

  beforeAll(async () => {
    t = await createTestApp({
      RATE_LIMITS: 'false',
      HEADERS_TIMEOUT: '1',
      BODY_TIMEOUT: '1',
      BODY_MIN_BYTES_PER_SECOND: '2048',
      CONNECTION_TIMEOUT: '3',
      KEEP_ALIVE_TIMEOUT: '2',
    });
    ({ port, base } = await listen(t));
    student = await createUser(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('cuts off headers trickling in one byte at a time after HEADERS_TIMEOUT, answering 408', async () => {
    const raw = await rawConnection(port);
    void trickle(raw, `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ${'a'.repeat(1000)}`, 1, 100);
    const closedAfter = await closedWithin(raw, 8000);
    expect(closedAfter, 'still open 8 s after connecting').not.toBeNull();
    expect(closedAfter).toBeGreaterThanOrEqual(900);
    expect(statusOf(raw.data())).toBe(408);
    expect(raw.data()).toContain(MSG.connections.tooSlow);
    expect(connectionGuardOf(t.app)!.stats.cutHeaders).toBeGreaterThan(0);
  });

  it('closes a connection that sends nothing after HEADERS_TIMEOUT', async () => {
    const raw = await rawConnection(port);
    expect(await closedWithin(raw, 8000), 'still open 8 s after connecting').not.toBeNull();
  });

  it('cuts off a body slower than BODY_MIN_BYTES_PER_SECOND with 408 while others are answered', async () => {
    const before = connectionGuardOf(t.app)?.stats.cutBody ?? 0;
    const raw = await rawConnection(port);
    raw.socket.write(post('/api/feedback', 100_000));
    // 200 bytes a second: a tenth of the minimum.
    const sent = trickle(raw, FEEDBACK + ' '.repeat(100_000), 20, 100);
    const health = await fetch(`${base}/api/health/live`);
    expect(health.status).toBe(200);
    const closedAfter = await closedWithin(raw, 10_000);
    expect(closedAfter, 'the slow body still arriving 10 s later').not.toBeNull();
    expect(closedAfter).toBeGreaterThanOrEqual(900);
    expect(statusOf(raw.data())).toBe(408);
    expect(raw.data()).toContain('"request_timeout"');
    expect(await sent).toBeLessThan(2000);
    expect(connectionGuardOf(t.app)!.stats.cutBody).toBe(before + 1);
  });

  it('lets a body that keeps the minimum rate take as long as it needs, stalls it has earned included', async () => {
    const body = FEEDBACK + ' '.repeat(40_000 - FEEDBACK.length);
    const raw = await rawConnection(port);
    raw.socket.write(post('/api/feedback', body.length, { connection: 'close' }));
    // 10 KB a second for a second (credit for five more), a 2 s stall (past BODY_TIMEOUT, within what it earned and
    // CONNECTION_TIMEOUT), then 10 KB a second again: 4 s in all, four times BODY_TIMEOUT.
    expect(await trickle(raw, body.slice(0, 10_000), 1000, 100)).toBe(10_000);
    await sleep(2000);
    expect(raw.isClosed()).toBe(false);
    expect(await trickle(raw, body.slice(10_000), 1000, 100)).toBe(30_000);
    await raw.closed;
    expect(statusOf(raw.data())).toBe(201);
  });

  it('keeps an idle keep-alive connection past HEADERS_TIMEOUT and closes it after KEEP_ALIVE_TIMEOUT', async () => {
    const raw = await rawConnection(port);
    const get = 'GET /api/health/live HTTP/1.1\r\nHost: x\r\n\r\n';
    raw.socket.write(get);
    await until('the first answer', () => (statusOf(raw.data()) ? true : undefined));
    await sleep(1500);
    const firstLength = raw.data().length;
    raw.socket.write(get);
    await until('the second answer', () => (raw.data().length > firstLength + 10 ? true : undefined));
    expect(raw.data().match(/HTTP\/1\.1 200/g)).toHaveLength(2);
    // Node gives a keep-alive connection one second more than KEEP_ALIVE_TIMEOUT.
    expect(await closedWithin(raw, 10_000)).not.toBeNull();
  });

  it('never cuts an open WebSocket, however long it is quiet', async () => {
    const ws = await WsTestClient.connect(base, student.cookie);
    await ws.waitFor((f) => f.type === 'hello');
    // Longer than every request rule here: headers 1 s, body 1 s, idle 3 s, keep-alive 2 s.
    await sleep(4500);
    ws.send({ op: 'subscribe', topic: `user:${student.id}` });
    await ws.waitFor((f) => f.type === 'subscribed');
    await ws.close();
  });
});

describe("the body rule and the server's own waits (BODY_MIN_BYTES_PER_SECOND=1000000, BODY_TIMEOUT=1)", () => {
  let t: TestApp;
  let port: number;
  let student: TestUser;
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  let entered = false;
  // Bytes that arrive at once earn next to nothing at a megabyte a second: only the rule's view of waits decides.
  // Large enough that Node stops reading (back-pressure) long before the end.
  const big = JSON.stringify({ pad: 'x'.repeat(8 * 1024 * 1024) });

  beforeAll(async () => {
    t = await createTestApp({
      RATE_LIMITS: 'false',
      BODY_TIMEOUT: '1',
      BODY_MIN_BYTES_PER_SECOND: '1000000',
      // One request in work at a time per client: a second one waits its turn.
      REQUESTS_IN_FLIGHT_PER_CLIENT: '1',
    });
    // A body the server reads only after 3 s (storage being slow): its socket is paused by back-pressure meanwhile.
    t.app.addContentTypeParser('application/x-slow-reader', (_request, payload, done) => {
      setTimeout(() => {
        let bytes = 0;
        payload.on('data', (d: Buffer) => (bytes += d.length));
        payload.on('end', () => done(null, { bytes }));
      }, 3000);
    });
    t.app.post('/api/test/slow-reader', async (request) => request.body);
    t.app.post('/api/test/held', async () => {
      entered = true;
      await held;
      return { ok: true };
    });
    ({ port } = await listen(t));
    student = await createUser(t.app);
  });
  afterAll(async () => {
    release();
    await t?.close();
  });

  it('does not count the time the server is not reading a body it has started on against the client', async () => {
    const raw = await rawConnection(port);
    const head = post('/api/test/slow-reader', big.length, { cookie: student.cookie, connection: 'close' });
    raw.socket.write(head.replace('application/json', 'application/x-slow-reader') + big);
    await raw.closed;
    expect(statusOf(raw.data()), raw.data().slice(0, 300)).toBe(200);
    expect(raw.data()).toContain(`"bytes":${big.length}`);
  });

  it("counts the time a body waits for its turn behind its own client's requests", async () => {
    const first = fetch(`http://127.0.0.1:${port}/api/test/held`, {
      method: 'POST',
      headers: { cookie: student.cookie, 'content-type': 'application/json' },
      body: '{}',
    });
    await until('the first request in work', () => (entered ? true : undefined));
    const raw = await rawConnection(port);
    // Half of its body sent, then nothing while it waits: the client's stall, whatever the queue.
    raw.socket.write(post('/api/test/held', big.length, { cookie: student.cookie }) + big.slice(0, big.length / 2));
    expect(await closedWithin(raw, 8000), 'still waiting 8 s later').not.toBeNull();
    expect(statusOf(raw.data())).toBe(408);
    release();
    expect((await first).status).toBe(200);
  });
});

describe('connections per address (CONNECTIONS_PER_IP=3)', () => {
  let t: TestApp | undefined;
  afterAll(() => t?.close());

  it('closes the connection over the cap from one peer at once; other addresses and freed places are served', async () => {
    const started = await listening({ CONNECTIONS_PER_IP: '3' });
    t = started.t;
    const { port } = started;
    const guard = connectionGuardOf(t.app)!;
    const get = 'GET /api/health/live HTTP/1.1\r\nHost: x\r\n\r\n';
    const kept: Raw[] = [];
    for (let i = 0; i < 3; i++) {
      const raw = await rawConnection(port);
      raw.socket.write(get);
      await until('an answer', () => (statusOf(raw.data()) === 200 ? true : undefined));
      kept.push(raw);
    }

    const over = await rawConnection(port);
    over.socket.write(get);
    expect(await closedWithin(over, 5000)).not.toBeNull();
    expect(over.data()).toBe('');
    expect(guard.stats.refused).toBe(1);
    expect(guard.open('127.0.0.1')).toBe(3);

    // Another address (the loopback range is all ours) is not held back.
    const other = await rawConnection(port, '127.0.0.2');
    other.socket.write(get);
    await until('the other address answered', () => (statusOf(other.data()) === 200 ? true : undefined));
    other.socket.destroy();

    // A place freed is a place for the next connection.
    kept.pop()!.socket.destroy();
    await until('the place freed', () => (guard.open('127.0.0.1') === 2 ? true : undefined));
    const next = await rawConnection(port);
    next.socket.write(get);
    await until('the next connection answered', () => (statusOf(next.data()) === 200 ? true : undefined));
    for (const raw of [...kept, next]) raw.socket.destroy();
    await until('every place freed', () => (guard.open('127.0.0.1') === 0 ? true : undefined));
    await t.close();
    t = undefined;
  });

  it('takes an open WebSocket out of the count (QUOTA_SOCKETS caps those)', async () => {
    const started = await listening({ CONNECTIONS_PER_IP: '2' });
    t = started.t;
    const guard = connectionGuardOf(t.app)!;
    const student = await createUser(t.app);
    const sockets: WsTestClient[] = [];
    for (let i = 0; i < 3; i++) {
      const ws = await WsTestClient.connect(started.base, student.cookie);
      await ws.waitFor((f) => f.type === 'hello');
      sockets.push(ws);
    }
    expect(guard.open('127.0.0.1')).toBe(0);
    expect((await fetch(`${started.base}/api/health/live`)).status).toBe(200);
    await Promise.all(sockets.map((s) => s.close()));
    await t.close();
    t = undefined;
  });

  it('with TRUST_PROXY counts the forwarded address: its requests open, answered 429 over the cap', async () => {
    // The test is the proxy (127.0.0.1); the clients are the addresses it forwards.
    const started = await listening({ CONNECTIONS_PER_IP: '3', TRUST_PROXY: '127.0.0.1' });
    t = started.t;
    const { port } = started;
    const guard = connectionGuardOf(t.app)!;
    const client = '203.0.113.5';
    const slow = await slowForwardedRequests(port, guard, client, 3);
    // Five connections from the proxy already: its own address is not capped.
    const fourth = await rawConnection(port);
    fourth.socket.write(post('/api/feedback', FEEDBACK.length, { 'x-forwarded-for': client }) + FEEDBACK);
    await fourth.closed;
    expect(statusOf(fourth.data())).toBe(429);
    expect(fourth.data()).toContain(MSG.connections.tooMany);
    expect(fourth.data().toLowerCase()).toContain('connection: close');
    expect(guard.stats.tooManyRequests).toBe(1);
    // A client the proxy forwards from elsewhere is served.
    const other = await fetch(`${started.base}/api/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.6' },
      body: FEEDBACK,
    });
    expect(other.status).toBe(201);
    // One body completes: its answer frees the place.
    slow[0]!.socket.write(SLOW_BODY.slice(100));
    await until('the first answer', () => (statusOf(slow[0]!.data()) ? true : undefined));
    expect(statusOf(slow[0]!.data())).toBe(201);
    await until('the place freed', () => (guard.open(client) === 2 ? true : undefined));
    const again = await fetch(`${started.base}/api/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
      body: FEEDBACK,
    });
    expect(again.status).toBe(201);
    for (const raw of slow) raw.socket.destroy();
    await until('every place freed', () => (guard.open(client) === 0 ? true : undefined));
    expect(guard.open('127.0.0.1')).toBe(0);
    await t.close();
    t = undefined;
  });
});

describe('the forwarded address is counted before Fastify (issue 23: a flood through the proxy)', () => {
  it("gives the address Fastify's request.ip gives, for any X-Forwarded-For and TRUST_PROXY", async () => {
    const entries = [
      '203.0.113.5',
      '198.51.100.7',
      '10.1.2.3',
      '127.0.0.1',
      '::1',
      '2001:db8::9',
      '::ffff:10.0.0.1',
      '::ffff:203.0.113.5',
      'unknown',
      '',
      ' ',
    ];
    const trusts: TrustProxy[] = [
      false,
      1,
      2,
      3,
      ['127.0.0.1'],
      ['loopback', '10.0.0.0/8'],
      ['uniquelocal'],
      ['::1', '198.51.100.0/24'],
    ];
    for (const trust of trusts) {
      const app = Fastify({ trustProxy: trust });
      app.get('/', async (request) => ({ ip: request.ip }));
      const ours = clientAddressOf(trust);
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('127.0.0.1', '10.9.9.9', '::1', '::ffff:127.0.0.1', '192.0.2.1'),
          fc.option(fc.array(fc.constantFrom(...entries), { maxLength: 5 }), { nil: undefined }),
          fc.constantFrom(',', ', ', ' ,\t'),
          async (peer, list, comma) => {
            const header = list?.join(comma);
            const headers = header === undefined ? {} : { 'x-forwarded-for': header };
            const answer = await app.inject({ method: 'GET', url: '/', remoteAddress: peer, headers });
            const raw = { socket: { remoteAddress: peer }, headers } as unknown as IncomingMessage;
            expect(ours(raw), `${JSON.stringify(trust)} ${peer} ${JSON.stringify(header)}`).toBe(
              (answer.json() as { ip: string }).ip,
            );
          },
        ),
        { numRuns: 150 },
      );
      await app.close();
    }
  });

  it('answers the request over the cap 429 without Fastify seeing it (no request line logged, no hooks)', async () => {
    const lines: string[] = [];
    const { t, port, base } = await listening({ CONNECTIONS_PER_IP: '2', TRUST_PROXY: '1', LOG_LEVEL: 'info' }, lines);
    try {
      const guard = connectionGuardOf(t.app)!;
      const client = '203.0.113.9';
      const open = await slowForwardedRequests(port, guard, client, 2);
      // A forged entry before the client's own changes nothing: the proxy's hop is what counts.
      const over = await rawConnection(port);
      over.socket.write(
        'GET /api/health/live?over-the-cap HTTP/1.1\r\nHost: x\r\n' + `X-Forwarded-For: 192.0.2.44, ${client}\r\n\r\n`,
      );
      await over.closed;
      expect(statusOf(over.data())).toBe(429);
      expect(over.data()).toContain(MSG.connections.tooMany);
      expect(over.data().toLowerCase()).toContain('connection: close');
      expect(guard.stats.tooManyRequests).toBe(1);
      // Fastify logs every request it is handed ("incoming request"): the refused one never reached it.
      expect(lines.some((l) => l.includes('over-the-cap'))).toBe(false);
      expect(lines.some((l) => l.includes('too many requests open from one address'))).toBe(true);
      // Another client through the same proxy is served and logged as usual.
      const other = await fetch(`${base}/api/health/live?other-client`, {
        headers: { 'x-forwarded-for': '203.0.113.10' },
      });
      expect(other.status).toBe(200);
      expect(lines.some((l) => l.includes('other-client'))).toBe(true);
      for (const raw of open) raw.socket.destroy();
      await until('every place freed', () => (guard.open(client) === 0 ? true : undefined));
    } finally {
      await t.close();
    }
  });
});
