import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MSG } from '@studybuddy/shared/messages';
import { authCodes, users } from '../../db/schema.ts';
import { sha256 } from '../../platform/passwords.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { captureMail, post, type MailCapture } from './auth-test-helpers.ts';

describe('POST /api/auth/signup', () => {
  let t: TestApp;
  let mail: MailCapture;
  beforeAll(async () => {
    mail = captureMail();
    t = await createTestApp({ RATE_LIMITS: 'false', PUBLIC_URL: 'https://studybuddy.example' }, { mailer: mail });
  });
  afterAll(() => t.close());

  const userRow = async (email: string) => (await t.app.ctx.db.select().from(users).where(eq(users.email, email)))[0];

  it('creates an unverified account, mails a verification link of the /verify form and signs nobody in', async () => {
    const res = await post(t.app, '/api/auth/signup', { email: '  Ann.Lee@G.UCLA.edu ', password: 'secret1' });
    expect(res.statusCode).toBe(201);
    expect(res.cookies.find((c) => c.name === 'sb_session' && c.value)).toBeUndefined();

    const user = await userRow('ann.lee@g.ucla.edu');
    expect(user).toMatchObject({ emailVerified: false, disabled: false });
    expect(user!.passwordHash).toMatch(/^scrypt\$/);
    expect(user!.passwordHash).not.toContain('secret1');

    const message = mail.messages.at(-1)!;
    expect(message.to).toBe('ann.lee@g.ucla.edu');
    const link = message.text.match(/https?:\/\/\S+/)![0];
    expect(link).toMatch(/^https:\/\/studybuddy\.example\/verify\?mode=verifyEmail&oobCode=[\w-]{40,}$/);
    // Only the code's hash is stored, valid for 24 hours.
    const code = new URL(link).searchParams.get('oobCode')!;
    const [row] = await t.app.ctx.db
      .select()
      .from(authCodes)
      .where(eq(authCodes.id, sha256(code)));
    expect(row).toMatchObject({ userId: user!.id, purpose: 'verifyEmail', usedAt: null });
    const hours = (row!.expiresAt.getTime() - row!.createdAt.getTime()) / 3_600_000;
    expect(hours).toBeCloseTo(24, 1);
  });

  it.each(['x@ucla.edu', 'x@mednet.ucla.edu', 'x@g.ucla.edu', 'x@andrew.cmu.edu', 'x@wisc.edu', 'Y@WISC.EDU'])(
    'accepts the university domain of %s',
    async (email) => {
      const res = await post(t.app, '/api/auth/signup', { email, password: 'secret1' });
      expect(res.statusCode).toBe(201);
    },
  );

  it.each(['x@gmail.com', 'x@cs.ucla.edu', 'x@ucla.edu.evil.com', 'x@cmu.edu', 'x@notwisc.edu'])(
    'refuses %s with the invalid-domain text and keeps no account',
    async (email) => {
      const res = await post(t.app, '/api/auth/signup', { email, password: 'secret1' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ message: MSG.signup.invalidDomain, field: 'email' });
      expect(await userRow(email.toLowerCase())).toBeUndefined();
    },
  );

  it.each([
    [{ email: 'not-an-email', password: 'secret1' }, 'email', MSG.signup.invalidEmail],
    [{ password: 'secret1' }, 'email', MSG.signup.invalidEmail],
    [{ email: 'p@g.ucla.edu', password: '12345' }, 'password', MSG.signup.weakPassword],
    [{ email: 'p@g.ucla.edu' }, 'password', MSG.signup.weakPassword],
    [{ email: 'p@g.ucla.edu', password: 'x'.repeat(129) }, 'password', MSG.signup.passwordTooLong],
  ])('refuses %j with 400 and the spec text', async (payload, field, message) => {
    const res = await post(t.app, '/api/auth/signup', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ message, field });
    expect(await userRow('p@g.ucla.edu')).toBeUndefined();
  });

  it('refuses a second sign-up with the same e-mail (any case) with the email-already-in-use text', async () => {
    expect((await post(t.app, '/api/auth/signup', { email: 'dup@wisc.edu', password: 'secret1' })).statusCode).toBe(
      201,
    );
    const again = await post(t.app, '/api/auth/signup', { email: 'DUP@wisc.edu', password: 'other12' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: 'email_in_use', message: MSG.signup.emailInUse });
  });

  it('takes the account back when the verification mail cannot be sent', async () => {
    mail.failing = true;
    try {
      const res = await post(t.app, '/api/auth/signup', { email: 'nomail@wisc.edu', password: 'secret1' });
      expect(res.statusCode).toBe(503);
      expect(res.json().error.message).toBe(MSG.signup.mailFailed);
    } finally {
      mail.failing = false;
    }
    expect(await userRow('nomail@wisc.edu')).toBeUndefined();
    expect((await post(t.app, '/api/auth/signup', { email: 'nomail@wisc.edu', password: 'secret1' })).statusCode).toBe(
      201,
    );
  });

  it('refuses a sign-up posted by a page of another origin', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      headers: { origin: 'https://evil.example' },
      payload: { email: 'csrf@wisc.edu', password: 'secret1' },
    });
    expect(res.statusCode).toBe(403);
    expect(await userRow('csrf@wisc.edu')).toBeUndefined();
  });
});
