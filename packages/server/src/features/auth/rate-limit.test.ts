// postgres-leg: attempts arriving at once race for the limiter's counter rows on a pool
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyReply } from 'fastify';
import { MSG } from '@studybuddy/shared/messages';
import { AppError } from '../../platform/errors.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { captureMail, logIn, post, signUpVerified } from './auth-test-helpers.ts';
import { createRateLimiter, LIMIT_RULES } from './rate-limit.ts';

const fakeReply = () => {
  const headers: Record<string, string> = {};
  return { headers, reply: { header: (k: string, v: string) => (headers[k] = v) } as unknown as FastifyReply };
};

describe('rate limiter (database counters, injected clock)', () => {
  let t: TestApp;
  let clock = new Date('2030-01-01T00:00:00Z');
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const limiter = () => createRateLimiter(t.app.ctx.db, { enabled: true, windowMs: 60_000, now: () => clock });
  const attempt = async (ip: string, email: string) => {
    try {
      await limiter().hit(fakeReply().reply, 'login', ip, email);
      return 'ok';
    } catch (err) {
      return err instanceof AppError ? err.statusCode : err;
    }
  };

  it('allows 10 failures per e-mail in a window, refuses the 11th, and starts over with the next window', async () => {
    const results = [];
    for (let i = 0; i < 11; i++) results.push(await attempt(`10.0.0.${i}`, 'a@wisc.edu'));
    expect(results).toEqual([...Array(10).fill('ok'), 429]);
    clock = new Date(clock.getTime() + 59_000);
    expect(await attempt('10.0.1.1', 'a@wisc.edu')).toBe(429);
    clock = new Date(clock.getTime() + 1_000);
    expect(await attempt('10.0.1.1', 'a@wisc.edu')).toBe('ok');
  });

  it('counts per IP across e-mails', async () => {
    const results = [];
    for (let i = 0; i < LIMIT_RULES.login.perIp + 1; i++) results.push(await attempt('10.9.9.9', `u${i}@wisc.edu`));
    expect(results.filter((r) => r === 'ok')).toHaveLength(LIMIT_RULES.login.perIp);
    expect(results.at(-1)).toBe(429);
  });

  it('a refunded attempt (a successful log-in) does not count', async () => {
    for (let i = 0; i < 30; i++) {
      const refund = await limiter().hit(fakeReply().reply, 'login', '10.5.5.5', 'ok@wisc.edu');
      await refund();
    }
    expect(await attempt('10.5.5.5', 'ok@wisc.edu')).toBe('ok');
  });

  it('lets exactly the limit through when attempts arrive at once, and says when to retry', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => attempt(`10.7.0.${i}`, 'burst@wisc.edu')));
    expect(results.filter((r) => r === 'ok')).toHaveLength(10);
    const { reply, headers } = fakeReply();
    await expect(limiter().hit(reply, 'login', '10.7.1.1', 'burst@wisc.edu')).rejects.toMatchObject({
      statusCode: 429,
      message: MSG.login.tooMany,
    });
    expect(Number(headers['Retry-After'])).toBeGreaterThanOrEqual(59);
  });

  it('does nothing when RATE_LIMITS is off', async () => {
    const off = createRateLimiter(t.app.ctx.db, { enabled: false, windowMs: 60_000 });
    for (let i = 0; i < 15; i++) await off.hit(fakeReply().reply, 'login', '1.1.1.1', 'x@wisc.edu');
  });
});

describe('acceptance 7: failed log-ins over the API with a short window', () => {
  let t: TestApp;
  const mail = captureMail();
  // The limits' clock: the test moves it past the window instead of waiting 10 s.
  let clock = new Date();
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_WINDOW: '10' }, { mailer: mail, authClock: () => clock });
    await signUpVerified(t.app, mail, 'lock@wisc.edu', 'right-pass');
  });
  afterAll(() => t.close());

  it('the 11th failed log-in for one e-mail within the window gets 429; the right password after the window works', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 10 }, () => post(t.app, '/api/auth/login', { email: 'lock@wisc.edu', password: 'wrong' })),
    );
    expect(statuses.map((r) => r.statusCode)).toEqual(Array(10).fill(401));
    const eleventh = await post(t.app, '/api/auth/login', { email: 'lock@wisc.edu', password: 'wrong' });
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.json().error).toEqual({ code: 'rate_limited', message: MSG.login.tooMany });
    // Even the right password waits for the window (10 s from the first failure) to end: refused in its last
    // millisecond, let in after it.
    const started = clock.getTime();
    clock = new Date(started + 9_999);
    expect((await post(t.app, '/api/auth/login', { email: 'lock@wisc.edu', password: 'right-pass' })).statusCode).toBe(
      429,
    );
    clock = new Date(started + 10_100);
    await logIn(t.app, 'lock@wisc.edu', 'right-pass');
  });

  it('sign-up is limited per e-mail too', async () => {
    const statuses = [];
    for (let i = 0; i < LIMIT_RULES.signup.perEmail + 1; i++) {
      statuses.push(
        (await post(t.app, '/api/auth/signup', { email: 'many@wisc.edu', password: 'secret1' })).statusCode,
      );
    }
    expect(statuses).toEqual([201, ...Array(LIMIT_RULES.signup.perEmail - 1).fill(409), 429]);
  });
});
