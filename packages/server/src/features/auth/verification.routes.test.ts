import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MSG } from '@studybuddy/shared/messages';
import { authCodes, users } from '../../db/schema.ts';
import { sha256 } from '../../platform/passwords.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { captureMail, logIn, post, sessionCookie, type MailCapture } from './auth-test-helpers.ts';

describe('verification, log-in before verifying, and resend', () => {
  let t: TestApp;
  let mail: MailCapture;
  beforeAll(async () => {
    mail = captureMail();
    t = await createTestApp({}, { mailer: mail });
  });
  afterAll(() => t.close());

  const signUp = (email: string) => post(t.app, '/api/auth/signup', { email, password: 'secret1' });
  const verify = (oobCode: string) => post(t.app, '/api/auth/verify-email', { oobCode });

  it('an unverified log-in makes no session and gives a resend ticket instead of keeping the password', async () => {
    await signUp('una@andrew.cmu.edu');
    const res = await post(t.app, '/api/auth/login', { email: 'una@andrew.cmu.edu', password: 'secret1' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('unverified');
    expect(body.resendTicket).toEqual(expect.any(String));
    expect(body.resendTicket).not.toContain('secret1');
    expect(sessionCookie(res)).toBeUndefined();
  });

  it('resend mails a new working link; the older link is refused (a resend replaces it)', async () => {
    await signUp('rex@wisc.edu');
    const oldCode = mail.lastCode('rex@wisc.edu', 'verifyEmail');
    const login = await post(t.app, '/api/auth/login', { email: 'rex@wisc.edu', password: 'secret1' });
    const resent = await post(t.app, '/api/auth/resend-verification', { ticket: login.json().resendTicket });
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toEqual({ sent: true });
    const newCode = mail.lastCode('rex@wisc.edu', 'verifyEmail');
    expect(newCode).not.toBe(oldCode);

    const old = await verify(oldCode);
    expect(old.statusCode).toBe(400);
    expect(old.json().error.message).toBe(MSG.verify.invalidOrExpired);

    expect((await verify(newCode)).statusCode).toBe(200);
    const [user] = await t.app.ctx.db.select().from(users).where(eq(users.email, 'rex@wisc.edu'));
    expect(user!.emailVerified).toBe(true);
    // Works once.
    const again = await verify(newCode);
    expect(again.statusCode).toBe(400);
    expect(again.json().error.message).toBe(MSG.verify.invalidOrExpired);
    // Now the log-in succeeds with a session.
    const cookie = await logIn(t.app, 'rex@wisc.edu', 'secret1');
    const session = await t.app.inject({ url: '/api/auth/session', headers: { cookie } });
    expect(session.json().user).toMatchObject({ email: 'rex@wisc.edu', emailVerified: true });
  });

  it('refuses an expired verification code (24 h)', async () => {
    await signUp('late@wisc.edu');
    const code = mail.lastCode('late@wisc.edu', 'verifyEmail');
    await t.app.ctx.db
      .update(authCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authCodes.id, sha256(code)));
    const res = await verify(code);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(MSG.verify.invalidOrExpired);
  });

  it.each([[{}], [{ oobCode: '' }], [{ oobCode: 'made-up-code' }], [{ oobCode: 42 }]])(
    'refuses verification with %j',
    async (payload) => {
      const res = await post(t.app, '/api/auth/verify-email', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(MSG.verify.invalidOrExpired);
    },
  );

  it('verifying signs the browser out', async () => {
    await signUp('out@wisc.edu');
    const other = await logIn(t.app, 'rex@wisc.edu', 'secret1');
    const res = await post(
      t.app,
      '/api/auth/verify-email',
      { oobCode: mail.lastCode('out@wisc.edu', 'verifyEmail') },
      other,
    );
    expect(res.statusCode).toBe(200);
    const session = await t.app.inject({ url: '/api/auth/session', headers: { cookie: other } });
    expect(session.json().user).toBeNull();
  });

  it('maps resend failures to the §8 resend texts', async () => {
    const missing = await post(t.app, '/api/auth/resend-verification', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toBe(MSG.resend.missingCredentials);

    await signUp('gone@wisc.edu');
    const login = await post(t.app, '/api/auth/login', { email: 'gone@wisc.edu', password: 'secret1' });
    const ticket: string = login.json().resendTicket;
    const forged = `${ticket.split('.')[0]}.${'A'.repeat(43)}`;
    const bad = await post(t.app, '/api/auth/resend-verification', { ticket: forged });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().error.message).toBe(MSG.resend.invalidCredentials);

    await t.app.ctx.db.delete(users).where(eq(users.email, 'gone@wisc.edu'));
    const notFound = await post(t.app, '/api/auth/resend-verification', { ticket });
    expect(notFound.statusCode).toBe(404);
    expect(notFound.json().error.message).toBe(MSG.resend.userNotFound);
  });

  it('a ticket of a meanwhile verified account sends nothing', async () => {
    await signUp('done@wisc.edu');
    const login = await post(t.app, '/api/auth/login', { email: 'done@wisc.edu', password: 'secret1' });
    await verify(mail.lastCode('done@wisc.edu', 'verifyEmail'));
    const before = mail.messages.length;
    const res = await post(t.app, '/api/auth/resend-verification', { ticket: login.json().resendTicket });
    expect(res.json()).toEqual({ sent: false, alreadyVerified: true });
    expect(mail.messages).toHaveLength(before);
  });

  it('resend is rate-limited per e-mail with the too-many-requests text', async () => {
    await signUp('spam@wisc.edu');
    const login = await post(t.app, '/api/auth/login', { email: 'spam@wisc.edu', password: 'secret1' });
    const ticket = login.json().resendTicket;
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await post(t.app, '/api/auth/resend-verification', { ticket })).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
    const limited = await post(t.app, '/api/auth/resend-verification', { ticket });
    expect(limited.json().error.message).toBe(MSG.resend.tooMany);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
