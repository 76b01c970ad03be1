import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MSG } from '@studybuddy/shared/messages';
import { authCodes, users } from '../../db/schema.ts';
import { sha256 } from '../../platform/passwords.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { captureMail, logIn, post, signUpVerified, type MailCapture } from './auth-test-helpers.ts';

describe('password reset', () => {
  let t: TestApp;
  let mail: MailCapture;
  beforeAll(async () => {
    mail = captureMail();
    t = await createTestApp({}, { mailer: mail });
    await signUpVerified(t.app, mail, 'pat@wisc.edu', 'old-pass');
  });
  afterAll(() => t.close());

  const request = (email?: string) => post(t.app, '/api/auth/password-reset', email === undefined ? {} : { email });
  const whoAmI = async (cookie: string) =>
    (await t.app.inject({ url: '/api/auth/session', headers: { cookie } })).json().user;

  it.each([[undefined], [''], ['   ']])('needs an e-mail (%j)', async (email) => {
    const res = await request(email);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ message: MSG.reset.needEmail, field: 'email' });
  });

  it('answers the same neutral text for an unknown e-mail and mails nobody', async () => {
    const before = mail.messages.length;
    const res = await request('ghost@wisc.edu');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: MSG.reset.sent });
    expect(mail.messages).toHaveLength(before);
  });

  it('resets end to end: link of the /verify form, code check, short password, new password, single use, other sessions ended', async () => {
    const otherDevice = await logIn(t.app, 'pat@wisc.edu', 'old-pass');
    const thisDevice = await logIn(t.app, 'pat@wisc.edu', 'old-pass');

    const res = await request('PAT@wisc.edu');
    expect(res.json()).toEqual({ message: MSG.reset.sent });
    const link = mail.messages.at(-1)!.text.match(/https?:\/\/\S+/)![0];
    expect(link).toMatch(/^http:\/\/localhost:3000\/verify\?mode=resetPassword&oobCode=[\w-]{40,}$/);
    const oobCode = mail.lastCode('pat@wisc.edu', 'resetPassword');
    const [row] = await t.app.ctx.db
      .select()
      .from(authCodes)
      .where(eq(authCodes.id, sha256(oobCode)));
    expect((row!.expiresAt.getTime() - row!.createdAt.getTime()) / 60_000).toBeCloseTo(60, 0);

    const check = await post(t.app, '/api/auth/password-reset/check', { oobCode });
    expect(check.json()).toEqual({ email: 'pat@wisc.edu' });

    const short = await post(t.app, '/api/auth/password-reset/confirm', { oobCode, password: '12345' });
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toMatchObject({ message: MSG.reset.refusals.weakPassword, field: 'password' });

    const ok = await post(t.app, '/api/auth/password-reset/confirm', { oobCode, password: 'new-pass' }, thisDevice);
    expect(ok.statusCode).toBe(200);
    expect(await whoAmI(otherDevice)).toBeNull();
    expect(await whoAmI(thisDevice)).toMatchObject({ email: 'pat@wisc.edu' });

    expect(
      (await post(t.app, '/api/auth/login', { email: 'pat@wisc.edu', password: 'old-pass' })).json().error.message,
    ).toBe(MSG.login.wrongPassword);
    await logIn(t.app, 'pat@wisc.edu', 'new-pass');

    for (const url of ['/api/auth/password-reset/check', '/api/auth/password-reset/confirm']) {
      const reused = await post(t.app, url, { oobCode, password: 'third-pass' });
      expect(reused.statusCode).toBe(400);
      expect(reused.json().error.message).toBe(MSG.reset.refusals.invalidLink);
    }
  });

  it('refuses made-up and expired codes, and a newer request replaces the older link', async () => {
    const fake = await post(t.app, '/api/auth/password-reset/check', { oobCode: 'nope' });
    expect(fake.json().error.message).toBe(MSG.reset.refusals.invalidLink);

    await request('pat@wisc.edu');
    const first = mail.lastCode('pat@wisc.edu', 'resetPassword');
    await request('pat@wisc.edu');
    const second = mail.lastCode('pat@wisc.edu', 'resetPassword');
    expect((await post(t.app, '/api/auth/password-reset/check', { oobCode: first })).statusCode).toBe(400);
    expect((await post(t.app, '/api/auth/password-reset/check', { oobCode: second })).statusCode).toBe(200);

    await t.app.ctx.db
      .update(authCodes)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(authCodes.id, sha256(second)));
    const expired = await post(t.app, '/api/auth/password-reset/confirm', { oobCode: second, password: 'another1' });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error.message).toBe(MSG.reset.refusals.expiredLink);
  });

  it('a reset of an unverified account also verifies it (the link proved the mailbox)', async () => {
    await post(t.app, '/api/auth/signup', { email: 'nover@wisc.edu', password: 'secret1' });
    await request('nover@wisc.edu');
    const oobCode = mail.lastCode('nover@wisc.edu', 'resetPassword');
    await post(t.app, '/api/auth/password-reset/confirm', { oobCode, password: 'secret2' });
    const [user] = await t.app.ctx.db.select().from(users).where(eq(users.email, 'nover@wisc.edu'));
    expect(user!.emailVerified).toBe(true);
    await logIn(t.app, 'nover@wisc.edu', 'secret2');
  });

  it('is rate-limited per e-mail with a clear text', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await request('limit@wisc.edu')).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
    expect((await request('limit@wisc.edu')).json().error.message).toBe(MSG.reset.tooMany);
  });
});
