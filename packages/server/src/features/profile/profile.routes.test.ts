import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadedFile } from '@studybuddy/shared/files';
import { MSG } from '@studybuddy/shared/messages';
import { userTopic } from '@studybuddy/shared/realtime';
import type { OwnProfile, SessionInfo } from '@studybuddy/shared/session';
import { profileCourses, profiles } from '../../db/schema.ts';
import type { Envelope } from '../../platform/realtime/event-bus.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { jpegWithGps, uploadDirect } from '../files/upload-test-helpers.ts';

describe('own profile: GET and PUT /api/profile', () => {
  let t: TestApp;
  let user: TestUser;
  let other: TestUser;
  let picture: UploadedFile;
  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t.app, { complete: false });
    other = await createUser(t.app);
    picture = (await uploadDirect(t.app, user.cookie, await jpegWithGps(200, 200))).json<{ file: UploadedFile }>().file;
  });
  afterAll(() => t.close());

  const put = (payload: object, cookie = user.cookie) =>
    t.app.inject({ method: 'PUT', url: '/api/profile', headers: { cookie }, payload });
  const upload = async (cookie: string, seed: number) =>
    (await uploadDirect(t.app, cookie, await jpegWithGps(64 + seed, 64))).json<{ file: UploadedFile }>().file.url;
  const current = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie: user.cookie } })).json<OwnProfile>();
  const complete = () => ({
    name: 'Ada Lovelace',
    major: 'Mathematics',
    year: 'Junior',
    bio: 'Engines and numbers.',
    courses: [{ id: 'c1', name: 'CS 31' }],
    profilePicture: picture.url,
    additionalImages: [],
  });

  it('starts with the defaults of a new account (generated avatar, not custom)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie: user.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ uid: user.id, college: 'UCLA', name: '', hasCustomProfilePicture: false });
    expect((await t.app.inject({ method: 'GET', url: '/api/profile' })).statusCode).toBe(401);
  });

  it.each([
    [{ name: '  ' }, 'name'],
    [{ major: '' }, 'major'],
    [{ year: '' }, 'year'],
  ])('refuses a save without a required field (%j) with the exact text', async (change, field) => {
    const res = await put({ ...complete(), ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({ code: 'bad_request', message: MSG.profile.requiredFields, field });
    expect((await current()).name).toBe('');
  });

  it('refuses a year that is not one of the four', async () => {
    const res = await put({ ...complete(), year: 'Fifth year' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(MSG.profile.requiredFields);
  });

  it('refuses the generated avatar as the picture with the exact text', async () => {
    const avatar = (await current()).profilePicture;
    const res = await put({ ...complete(), profilePicture: avatar });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({
      code: 'bad_request',
      message: MSG.profile.customPicture,
      field: 'profilePicture',
    });
  });

  it("refuses pictures that are not the user's own uploads", async () => {
    const theirs = await upload(other.cookie, 1);
    for (const profilePicture of [
      theirs,
      `/api/files/users/${user.id}/profile/${'a'.repeat(64)}.jpg`,
      'https://evil.example/x.jpg',
    ]) {
      const res = await put({ ...complete(), profilePicture });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ message: MSG.profile.imageUnavailable, field: 'profilePicture' });
    }
    const res = await put({ ...complete(), additionalImages: [theirs] });
    expect(res.json().error).toMatchObject({ message: MSG.profile.imageUnavailable, field: 'additionalImages' });
  });

  it('refuses a 5th additional image and an 11th course with the exact texts', async () => {
    const images = await Promise.all([1, 2, 3, 4, 5].map((i) => upload(user.cookie, i)));
    const five = await put({ ...complete(), additionalImages: images });
    expect(five.statusCode).toBe(400);
    expect(five.json().error).toEqual({
      code: 'validation_failed',
      message: MSG.profile.maxImages,
      field: 'additionalImages',
    });
    const courses = Array.from({ length: 11 }, (_, i) => ({ id: `c${i}`, name: `Course ${i}` }));
    const eleven = await put({ ...complete(), courses });
    expect(eleven.statusCode).toBe(400);
    expect(eleven.json().error).toEqual({
      code: 'validation_failed',
      message: MSG.profile.maxCourses,
      field: 'courses',
    });

    const four = await put({ ...complete(), additionalImages: images.slice(0, 4), courses: courses.slice(0, 10) });
    expect(four.statusCode).toBe(200);
    expect(four.json<OwnProfile>().additionalImages).toEqual(images.slice(0, 4));
    expect(four.json<OwnProfile>().courses).toHaveLength(10);
  });

  it('saves a complete profile: custom picture, lowercaseName and course rows in step, session updated', async () => {
    const events: Envelope[] = [];
    t.app.ctx.realtime.bus.subscribe((e) => events.push(e));
    const res = await put({
      ...complete(),
      name: '  Ada LOVELACE ',
      courses: [
        { id: 'a', name: 'CS 31' },
        { id: 'b', name: ' cs  31 ' },
        { id: 'c', name: 'Math 32A' },
      ],
    });
    expect(res.statusCode).toBe(200);
    const saved = res.json<OwnProfile>();
    expect(saved).toMatchObject({ name: 'Ada LOVELACE', hasCustomProfilePicture: true, profilePicture: picture.url });
    expect(saved.courses.map((c) => c.name)).toEqual(['CS 31', 'Math 32A']);
    const [row] = await t.app.ctx.db.select().from(profiles).where(eq(profiles.userId, user.id));
    expect(row!.lowercaseName).toBe('ada lovelace');
    const keys = async () =>
      (await t.app.ctx.db.select().from(profileCourses).where(eq(profileCourses.userId, user.id)))
        .map((r) => r.courseKey)
        .sort();
    expect(await keys()).toEqual(['cs 31', 'math 32a']);

    expect(events).toContainEqual({
      topics: [userTopic(user.id)],
      event: { type: 'profile.changed', userId: user.id },
    });

    const session = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: user.cookie } });
    expect(session.json<SessionInfo>().profile).toEqual(saved);

    // A later save keeps the picture (already on the profile) and replaces the course rows.
    const next = await put({ ...complete(), name: 'Grace', courses: [{ id: 'd', name: 'Physics 1A' }] });
    expect(next.statusCode).toBe(200);
    expect(await keys()).toEqual(['physics 1a']);
    const [after] = await t.app.ctx.db.select().from(profiles).where(eq(profiles.userId, user.id));
    expect(after!.lowercaseName).toBe('grace');
  });

  it('keeps the custom flag of a picture the save does not change (seeded or imported profiles)', async () => {
    const seeded = await createUser(t.app, { profilePicture: '/imported/picture.jpg' });
    const body = { name: 'Seeded', major: 'Physics', year: 'Senior', profilePicture: '/imported/picture.jpg' };
    const res = await put(body, seeded.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json<OwnProfile>().hasCustomProfilePicture).toBe(true);
  });

  it('never writes half a profile: a refused save leaves every field as it was', async () => {
    const before = await current();
    const res = await put({ ...complete(), name: 'Changed', profilePicture: 'https://evil.example/x.jpg' });
    expect(res.statusCode).toBe(400);
    expect(await current()).toEqual(before);
  });

  it('turns e-mail notices off and on, and refuses anything but a boolean', async () => {
    const set = (payload: unknown, cookie: string | null = user.cookie) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/profile/notifications',
        headers: cookie ? { cookie } : {},
        payload: payload as object,
      });
    expect((await current()).emailNotificationsEnabled).toBe(true);
    const off = await set({ emailNotificationsEnabled: false });
    expect(off.statusCode).toBe(200);
    expect(off.json<OwnProfile>().emailNotificationsEnabled).toBe(false);
    const [row] = await t.app.ctx.db.select().from(profiles).where(eq(profiles.userId, user.id));
    expect(row!.emailNotificationsEnabled).toBe(false);

    const bad = await set({ emailNotificationsEnabled: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.field).toBe('emailNotificationsEnabled');
    expect((await set({ emailNotificationsEnabled: true }, null)).statusCode).toBe(401);
    expect((await current()).emailNotificationsEnabled).toBe(false);

    expect((await set({ emailNotificationsEnabled: true })).json<OwnProfile>().emailNotificationsEnabled).toBe(true);
    // The other user's setting is untouched.
    const [theirs] = await t.app.ctx.db.select().from(profiles).where(eq(profiles.userId, other.id));
    expect(theirs!.emailNotificationsEnabled).toBe(true);
  });
});
