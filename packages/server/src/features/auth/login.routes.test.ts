import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MSG } from '@studybuddy/shared/messages';
import { isProfileComplete } from '@studybuddy/shared/session';
import { connections as userConnections, profiles, sessions, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { captureMail, logIn, post, signUpVerified, type MailCapture } from './auth-test-helpers.ts';

describe('log-in, profile creation, session and log-out', () => {
  let t: TestApp;
  let mail: MailCapture;
  beforeAll(async () => {
    mail = captureMail();
    t = await createTestApp({}, { mailer: mail });
    await signUpVerified(t.app, mail, 'kim@mednet.ucla.edu', 'secret1');
  });
  afterAll(() => t.close());

  const login = (email: string, password: string) => post(t.app, '/api/auth/login', { email, password });

  it.each([
    ['nobody@wisc.edu', 'secret1', 401, 'user_not_found', MSG.login.userNotFound],
    ['kim@mednet.ucla.edu', 'wrong-one', 401, 'wrong_password', MSG.login.wrongPassword],
    ['kim@mednet.ucla.edu', '', 400, 'validation_failed', MSG.login.invalidCredential],
    ['not an email', 'secret1', 400, 'validation_failed', MSG.signup.invalidEmail],
  ])('log-in %s / %j answers %i %s', async (email, password, status, code, message) => {
    const res = await login(email, password);
    expect(res.statusCode).toBe(status);
    expect(res.json().error).toMatchObject({ code, message });
    expect(res.cookies.find((c) => c.name === 'sb_session' && c.value)).toBeUndefined();
  });

  it('an account without a password (social sign-in only) gets the invalid-credential text', async () => {
    await t.app.ctx.db.insert(users).values({ id: 'social-only', email: 'soc@wisc.edu', emailVerified: true });
    const res = await login('soc@wisc.edu', 'anything');
    expect(res.json().error.message).toBe(MSG.login.invalidCredential);
  });

  it('a disabled account gets the account-disabled text', async () => {
    await signUpVerified(t.app, mail, 'off@wisc.edu', 'secret1');
    await t.app.ctx.db.update(users).set({ disabled: true }).where(eq(users.email, 'off@wisc.edu'));
    const res = await login('off@wisc.edu', 'secret1');
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe(MSG.reset.accountDisabled);
  });

  it('the first verified log-in creates the profile with exactly the defaults of requirements §3', async () => {
    const [user] = await t.app.ctx.db.select().from(users).where(eq(users.email, 'kim@mednet.ucla.edu'));
    expect(await t.app.ctx.db.select().from(profiles).where(eq(profiles.userId, user!.id))).toHaveLength(0);
    const res = await login('KIM@mednet.ucla.edu', 'secret1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'signedIn' });
    const cookie = res.cookies.find((c) => c.name === 'sb_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

    const [profile] = await t.app.ctx.db.select().from(profiles).where(eq(profiles.userId, user!.id));
    const { createdAt, profilePicture } = profile!;
    // Every field of requirements §3's user profile (other columns may be added by other features).
    const spec = Object.fromEntries(
      [
        'userId',
        'email',
        'emailNotificationsEnabled',
        'college',
        'name',
        'lowercaseName',
        'major',
        'year',
        'bio',
        'courses',
        'hasCustomProfilePicture',
        'additionalImages',
        'gcalEnabled',
      ].map((k) => [k, profile![k as keyof typeof profile]]),
    );
    expect(spec).toEqual({
      userId: user!.id,
      email: 'kim@mednet.ucla.edu',
      emailNotificationsEnabled: true,
      college: 'UCLA',
      name: '',
      lowercaseName: '',
      major: '',
      year: '',
      bio: '',
      courses: [],
      hasCustomProfilePicture: false,
      additionalImages: [],
      gcalEnabled: false,
    });
    expect(Math.abs(createdAt.getTime() - Date.now())).toBeLessThan(60_000);
    const connections = await t.app.ctx.db.select().from(userConnections).where(eq(userConnections.userId, user!.id));
    expect(connections).toEqual([]);
    expect(profilePicture).toMatch(/^\/api\/avatars\/[\w-]{8,64}\.svg$/);
    const avatar = await t.app.inject({ url: profilePicture });
    expect(avatar.statusCode).toBe(200);
    expect(avatar.headers['content-type']).toContain('image/svg+xml');

    const session = await t.app.inject({ url: '/api/auth/session', headers: { cookie: `sb_session=${cookie.value}` } });
    expect(session.json().profile).toMatchObject({ college: 'UCLA', hasCustomProfilePicture: false, profilePicture });
    expect(isProfileComplete(session.json().profile)).toBe(false);

    // A second log-in keeps the profile as it is.
    await login('kim@mednet.ucla.edu', 'secret1');
    const again = await t.app.ctx.db.select().from(profiles).where(eq(profiles.userId, user!.id));
    expect(again).toHaveLength(1);
    expect(again[0]!.profilePicture).toBe(profilePicture);
  });

  it.each([
    ['ann@andrew.cmu.edu', 'Carnegie Mellon'],
    ['bo@wisc.edu', 'University of Wisconsin-Madison'],
    ['cy@ucla.edu', 'UCLA'],
  ])('college of %s is %s', async (email, college) => {
    await signUpVerified(t.app, mail, email, 'secret1');
    const cookie = await logIn(t.app, email, 'secret1');
    const session = await t.app.inject({ url: '/api/auth/session', headers: { cookie } });
    expect(session.json().profile.college).toBe(college);
  });

  it('session is empty when signed out or with a made-up cookie', async () => {
    expect((await t.app.inject({ url: '/api/auth/session' })).json()).toEqual({ user: null, profile: null });
    const res = await t.app.inject({ url: '/api/auth/session', headers: { cookie: 'sb_session=forged' } });
    expect(res.json()).toEqual({ user: null, profile: null });
  });

  it('log-out ends the session in the database', async () => {
    const cookie = await logIn(t.app, 'kim@mednet.ucla.edu', 'secret1');
    const before = await t.app.ctx.db.select().from(sessions);
    const res = await post(t.app, '/api/auth/logout', {}, cookie);
    expect(res.statusCode).toBe(200);
    expect(await t.app.ctx.db.select().from(sessions)).toHaveLength(before.length - 1);
    expect((await t.app.inject({ url: '/api/auth/session', headers: { cookie } })).json().user).toBeNull();
  });
});
