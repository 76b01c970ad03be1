import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';

/**
 * Issue 23, point 1: behind the proxy, the client address is the one the proxy saw, whatever X-Forwarded-For the
 * client sent. Counted here by a per-IP limit (feedback per IP per hour, 2).
 */
const PROXY = '10.0.0.5';
const forged = () => `${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

describe('the client address behind TRUST_PROXY', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const start = async (trustProxy?: string) => {
    t = await createTestApp({ QUOTA_FEEDBACK_PER_HOUR: '2', ...(trustProxy ? { TRUST_PROXY: trustProxy } : {}) });
    return t.app;
  };
  const feedback = (peer: string, xff?: string) =>
    t!.app.inject({
      method: 'POST',
      url: '/api/feedback',
      payload: { feedback: 'Nice', rating: 5 },
      remoteAddress: peer,
      headers: xff === undefined ? {} : { 'x-forwarded-for': xff },
    });
  const statuses = async (sends: Array<() => ReturnType<typeof feedback>>) => {
    const out: number[] = [];
    for (const send of sends) out.push((await send()).statusCode);
    return out;
  };

  it('TRUST_PROXY=1: a forged X-Forwarded-For passed on by the one proxy changes nothing', async () => {
    await start('1');
    // What the proxy forwards for the client 203.0.113.7: set to the peer (the README's proxies), or the client's
    // own header with the peer appended (a proxy that appends).
    const client = '203.0.113.7';
    expect(
      await statuses([
        () => feedback(PROXY, client),
        () => feedback(PROXY, `${forged()}, ${client}`),
        () => feedback(PROXY, `${forged()}, ${forged()}, ${client}`),
      ]),
    ).toEqual([201, 201, 429]);
    // Another client behind the same proxy has its own count.
    expect((await feedback(PROXY, `${client}, 203.0.113.8`)).statusCode).toBe(201);
  });

  it('TRUST_PROXY=<addresses>: only a listed peer is believed, and only as far as the listed hops go', async () => {
    await start(`${PROXY}, 10.1.0.0/16`);
    const client = '203.0.113.7';
    expect(
      await statuses([
        () => feedback(PROXY, client),
        // Two listed proxies in a row: the address before them is the client's.
        () => feedback('10.1.2.3', `${forged()}, ${client}, ${PROXY}`),
        () => feedback(PROXY, `${forged()}, ${client}`),
      ]),
    ).toEqual([201, 201, 429]);
    // A peer that is not a listed proxy is the client, whatever it claims.
    const direct = '198.51.100.20';
    expect(
      await statuses([
        () => feedback(direct, forged()),
        () => feedback(direct, forged()),
        () => feedback(direct, `${forged()}, ${PROXY}`),
      ]),
    ).toEqual([201, 201, 429]);
  });

  it('without TRUST_PROXY the header is ignored', async () => {
    await start();
    const peer = '198.51.100.30';
    expect(
      await statuses([() => feedback(peer, forged()), () => feedback(peer, forged()), () => feedback(peer, forged())]),
    ).toEqual([201, 201, 429]);
  });
});
