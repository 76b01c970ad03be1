import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyReply } from 'fastify';
import { eq } from 'drizzle-orm';
import { MSG } from '@studybuddy/shared/messages';
import { users } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { hashPassword } from '../../platform/passwords.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { captureMail, post, sessionCookie, signUpVerified } from './auth-test-helpers.ts';
import { DEVICE_COOKIE } from './known-device.ts';
import { createLoginGuard, LOGIN_GUARD_RULES, MAX_LOCK_MS } from './login-guard.ts';

const WINDOW_MS = 60_000;

const fakeReply = () => {
  const headers: Record<string, string> = {};
  return { headers, reply: { header: (k: string, v: string) => (headers[k] = v) } as unknown as FastifyReply };
};

describe('login guard (database counters, injected clock)', () => {
  let t: TestApp;
  let clock = new Date('2031-03-01T00:00:00Z');
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const guard = () => createLoginGuard(t.app.ctx.db, { enabled: true, windowMs: WINDOW_MS, now: () => clock });
  const later = (ms: number) => (clock = new Date(clock.getTime() + ms));

  /** One attempt that fails when let through: 'failed', or the Retry-After (s) of a 429. */
  async function fail(email: string, ip: string, deviceId: string | null = null): Promise<'failed' | number> {
    const { reply, headers } = fakeReply();
    try {
      const attempt = await guard().begin(reply, { ip, email, deviceId });
      await attempt.failed();
      return 'failed';
    } catch (err) {
      if (!(err instanceof AppError) || err.statusCode !== 429) throw err;
      expect(err.message).toBe(MSG.login.tooMany);
      return Number(headers['Retry-After']);
    }
  }

  /** Fails until refused (from a new IP each time, so only the account counts); answers the lock in seconds. */
  async function failUntilLocked(email: string, ipBase: string): Promise<{ failures: number; lockS: number }> {
    for (let i = 0; ; i++) {
      const r = await fail(email, `${ipBase}.${i}`);
      if (r !== 'failed') return { failures: i, lockS: r };
      if (i > 200) throw new Error('never locked');
    }
  }

  it('locks an account for longer after each burst of failures: one window, two, four, eight', async () => {
    const email = 'grow@wisc.edu';
    const locks: number[] = [];
    for (let round = 0; round < 4; round++) {
      const { failures, lockS } = await failUntilLocked(email, `10.1.${round}`);
      expect(failures).toBe(LOGIN_GUARD_RULES.account.perWindow);
      locks.push(lockS);
      // Still locked a second before the lock ends, free right after.
      later(lockS * 1000 - 1000);
      expect(await fail(email, '10.2.0.1')).toBeGreaterThan(0);
      later(1000);
    }
    expect(locks).toEqual([60, 120, 240, 480]);
  });

  it('caps the failures per account per day however slowly they come', async () => {
    const email = 'slow@wisc.edu';
    let failed = 0;
    // Five failures per window never strike, but the day runs out.
    for (let round = 0; failed < LOGIN_GUARD_RULES.account.perDay; round++) {
      for (let i = 0; i < 5; i++) {
        expect(await fail(email, `10.3.${round}.${i}`)).toBe('failed');
        failed += 1;
      }
      later(WINDOW_MS);
    }
    const retryAfter = Number(await fail(email, '10.3.255.1'));
    expect(retryAfter).toBeGreaterThan(20 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    later(retryAfter * 1000);
    expect(await fail(email, '10.3.255.2')).toBe('failed');
  });

  it('counts per IP across accounts, with a higher limit', async () => {
    const results: ('failed' | number)[] = [];
    for (let i = 0; i <= LOGIN_GUARD_RULES.ip.perWindow; i++) results.push(await fail(`ip${i}@wisc.edu`, '10.9.9.9'));
    expect(results.filter((r) => r === 'failed')).toHaveLength(LOGIN_GUARD_RULES.ip.perWindow);
    expect(results.at(-1)).toBeGreaterThan(0);
    later(WINDOW_MS);
  });

  it('a known device is held back only by its own counter: the account may be locked, the device is not', async () => {
    const email = 'owner@wisc.edu';
    await failUntilLocked(email, '10.4.0');
    expect(await fail(email, '10.4.1.1')).toBeGreaterThan(0);
    const { reply } = fakeReply();
    const attempt = await guard().begin(reply, { ip: '10.4.1.1', email, deviceId: 'device-a' });
    await attempt.succeeded();
    // Its own failures lock it like an account.
    const device: ('failed' | number)[] = [];
    for (let i = 0; i <= LOGIN_GUARD_RULES.device.perWindow; i++)
      device.push(await fail(email, '10.4.1.1', 'device-b'));
    expect(device.filter((r) => r === 'failed')).toHaveLength(LOGIN_GUARD_RULES.device.perWindow);
    expect(device.at(-1)).toBeGreaterThan(0);
    expect(await fail(email, '10.4.1.1', 'device-a')).toBe('failed');
    later(MAX_LOCK_MS);
  });
});

describe('log-in guessing over the API: a stranger cannot lock the owner out', () => {
  let t: TestApp;
  const mail = captureMail();
  const email = 'victim@ucla.edu';
  beforeAll(async () => {
    t = await createTestApp({}, { mailer: mail });
    await signUpVerified(t.app, mail, email, 'right-pass');
  });
  afterAll(() => t.close());

  const login = (password: string, cookie?: string) => post(t.app, '/api/auth/login', { email, password }, cookie);
  let known: string | undefined;
  const deviceOf = (res: Awaited<ReturnType<typeof login>>) => {
    const c = res.cookies.find((x) => x.name === DEVICE_COOKIE);
    return c ? { cookie: `${DEVICE_COOKIE}=${c.value}`, options: c } : undefined;
  };

  it('the owner’s known device still signs in while a fresh device is locked, and the errors keep their texts', async () => {
    const first = await login('right-pass');
    expect(first.statusCode).toBe(200);
    const device = deviceOf(first)!;
    known = device.cookie;
    expect(device.options).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });
    expect(device.options.maxAge).toBeGreaterThan(90 * 24 * 3600);

    // A stranger guesses until refused; the texts are requirements §8's.
    const wrong = await login('guess-0');
    expect(wrong.json().error).toEqual({ code: 'wrong_password', message: MSG.login.wrongPassword, field: 'password' });
    for (let i = 1; i < LOGIN_GUARD_RULES.account.perWindow; i++)
      expect((await login(`guess-${i}`)).statusCode).toBe(401);
    const locked = await login('guess-x');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error).toEqual({ code: 'rate_limited', message: MSG.login.tooMany });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);

    // A fresh browser is locked even with the right password; the known device gets in.
    expect((await login('right-pass')).statusCode).toBe(429);
    const owner = await login('right-pass', device.cookie);
    expect(owner.statusCode).toBe(200);
    expect(sessionCookie(owner)).toBeDefined();
    // The owner's own typo answers as usual.
    expect((await login('typo', device.cookie)).json().error.message).toBe(MSG.login.wrongPassword);
  });

  it('a forged, other-account or pre-password-change device cookie is a fresh device', async () => {
    const other = 'other@ucla.edu';
    await signUpVerified(t.app, mail, other, 'other-pass');
    const otherDevice = deviceOf(await post(t.app, '/api/auth/login', { email: other, password: 'other-pass' }))!;
    for (const cookie of [otherDevice.cookie, `${DEVICE_COOKIE}=forged.value`]) {
      expect((await login('right-pass', cookie)).statusCode).toBe(429);
    }
    // Earned before the password changed (e.g. by someone who knew the old one): no longer known.
    const before = deviceOf(await login('right-pass', known))!;
    await t.app.ctx.db
      .update(users)
      .set({ passwordHash: await hashPassword('changed-pass') })
      .where(eq(users.email, email));
    expect((await login('changed-pass', before.cookie)).statusCode).toBe(429);
  });
});
