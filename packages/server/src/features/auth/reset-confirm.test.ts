import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@studybuddy/shared/messages';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { captureMail, logIn, post, signUpVerified } from './auth-test-helpers.ts';
import { LIMIT_RULES } from './rate-limit.ts';

describe('password reset confirmation: the code before the hash, under a per-IP limit', () => {
  let t: TestApp;
  const mail = captureMail();
  let hashes = 0;
  beforeAll(async () => {
    t = await createTestApp(
      {},
      {
        mailer: mail,
        wrapHasher: (inner) => ({
          hash: (password) => {
            hashes += 1;
            return inner.hash(password);
          },
          verify: inner.verify,
        }),
      },
    );
    await signUpVerified(t.app, mail, 'rc@wisc.edu', 'old-pass');
  });
  afterAll(() => t.close());

  const confirm = (oobCode: string, password = 'new-pass', ip = '10.0.0.1') =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset/confirm',
      payload: { oobCode, password },
      remoteAddress: ip,
    });

  it('refuses a wrong code without hashing the new password; a good one hashes once', async () => {
    const before = hashes;
    const wrong = await confirm('x'.repeat(43));
    expect(wrong.statusCode).toBe(400);
    expect(hashes).toBe(before);

    await post(t.app, '/api/auth/password-reset', { email: 'rc@wisc.edu' });
    const good = await confirm(mail.lastCode('rc@wisc.edu', 'resetPassword'));
    expect(good.statusCode).toBe(200);
    expect(hashes).toBe(before + 1);
    await logIn(t.app, 'rc@wisc.edu', 'new-pass');
  });

  it('a burst of confirmations from one IP is refused after the limit, still without hashing', async () => {
    const before = hashes;
    const statuses = await Promise.all(
      Array.from({ length: LIMIT_RULES.resetConfirm.perIp + 5 }, (_, i) =>
        confirm(`bad-code-${i}`.padEnd(43, 'x'), 'pw123456', '10.0.0.9'),
      ),
    );
    const codes = statuses.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 400)).toHaveLength(LIMIT_RULES.resetConfirm.perIp);
    expect(codes.filter((c) => c === 429)).toHaveLength(5);
    const limited = statuses.find((r) => r.statusCode === 429)!;
    expect(limited.json().error).toEqual({ code: 'rate_limited', message: MSG.reset.tooMany });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(hashes).toBe(before);
    // Another IP is not held back.
    expect((await confirm('y'.repeat(43), 'pw123456', '10.0.0.10')).statusCode).toBe(400);
  });
});
