import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { MSG } from '@studybuddy/shared/messages';
import { authCodes, users } from '../../db/schema.ts';
import { sha256 } from '../../platform/passwords.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { captureMail, post, signUpVerified, type MailCapture } from './auth-test-helpers.ts';

const CHECK = '/api/auth/password-reset/check';
const CONFIRM = '/api/auth/password-reset/confirm';

/** Requirements §8: reset messages carry the error code as a prefix, `{code}: {message}`, a code per case. */
describe('password reset refusals', () => {
  let t: TestApp;
  let mail: MailCapture;
  beforeAll(async () => {
    mail = captureMail();
    t = await createTestApp({}, { mailer: mail });
  });
  afterAll(() => t.close());

  async function linkFor(email: string): Promise<string> {
    await post(t.app, '/api/auth/password-reset', { email });
    return mail.lastCode(email, 'resetPassword');
  }
  const refused = async (url: string, body: object) => {
    const res = await post(t.app, url, body);
    return { status: res.statusCode, ...(res.json().error as { code: string; message: string; field?: string }) };
  };

  it('every refusal text is its code, a colon and the message', () => {
    const codes = {
      expiredLink: 'expired_link',
      invalidLink: 'invalid_link',
      accountDisabled: 'account_disabled',
      userNotFound: 'user_not_found',
      weakPassword: 'weak_password',
    } as const;
    for (const [key, code] of Object.entries(codes)) {
      expect(MSG.reset.refusals[key as keyof typeof codes]).toMatch(new RegExp(`^${code}: [A-Z]`));
    }
    expect(MSG.reset.refusals.accountDisabled).toBe(`account_disabled: ${MSG.reset.accountDisabled}`);
    expect(MSG.reset.refusals.weakPassword).toBe(`weak_password: ${MSG.reset.tooShort}`);
  });

  it('an expired link and an invalid link are told apart, on check and on confirm', async () => {
    await signUpVerified(t.app, mail, 'exp@wisc.edu', 'old-pass');
    const code = await linkFor('exp@wisc.edu');
    await t.app.ctx.db
      .update(authCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authCodes.id, sha256(code)));
    for (const url of [CHECK, CONFIRM]) {
      expect(await refused(url, { oobCode: code, password: 'new-pass' })).toEqual({
        status: 400,
        code: 'expired_link',
        message: MSG.reset.refusals.expiredLink,
      });
      for (const oobCode of ['made-up-code', '', 'x'.repeat(500)]) {
        expect(await refused(url, { oobCode, password: 'new-pass' })).toEqual({
          status: 400,
          code: 'invalid_link',
          message: MSG.reset.refusals.invalidLink,
        });
      }
    }
    // A link replaced by a newer one is invalid, not expired.
    const first = await linkFor('exp@wisc.edu');
    await linkFor('exp@wisc.edu');
    expect((await refused(CHECK, { oobCode: first })).code).toBe('invalid_link');
  });

  it('a too short new password is a weak password', async () => {
    await signUpVerified(t.app, mail, 'weak@wisc.edu', 'old-pass');
    const code = await linkFor('weak@wisc.edu');
    expect(await refused(CONFIRM, { oobCode: code, password: '12345' })).toEqual({
      status: 400,
      code: 'weak_password',
      message: MSG.reset.refusals.weakPassword,
      field: 'password',
    });
    // The code was not used up by the refusal.
    expect((await post(t.app, CONFIRM, { oobCode: code, password: '123456' })).statusCode).toBe(200);
  });

  it('a disabled account is refused on check and on confirm, and its password stays', async () => {
    await signUpVerified(t.app, mail, 'off@wisc.edu', 'old-pass');
    const code = await linkFor('off@wisc.edu');
    await t.app.ctx.db.update(users).set({ disabled: true }).where(eq(users.email, 'off@wisc.edu'));
    for (const url of [CHECK, CONFIRM]) {
      expect(await refused(url, { oobCode: code, password: 'new-pass' })).toEqual({
        status: 403,
        code: 'account_disabled',
        message: MSG.reset.refusals.accountDisabled,
      });
    }
    const login = await post(t.app, '/api/auth/login', { email: 'off@wisc.edu', password: 'old-pass' });
    expect(login.json().error.code).toBe('account_disabled');
  });

  it('a link whose account is gone is user not found', async () => {
    await signUpVerified(t.app, mail, 'gone@wisc.edu', 'old-pass');
    const code = await linkFor('gone@wisc.edu');
    // The account row goes while its code stays (as when the account is deleted between the two reads): foreign
    // keys are triggers, which the replica role skips.
    await t.app.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL session_replication_role = replica`);
      await tx.delete(users).where(eq(users.email, 'gone@wisc.edu'));
    });
    const expected = { status: 404, code: 'user_not_found', message: MSG.reset.refusals.userNotFound };
    expect(await refused(CHECK, { oobCode: code })).toEqual(expected);
    expect(await refused(CONFIRM, { oobCode: code, password: 'new-pass' })).toEqual(expected);
  });
});
