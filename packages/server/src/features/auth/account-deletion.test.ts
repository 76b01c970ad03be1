import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadedFile } from '@studybuddy/shared/files';
import { MSG } from '@studybuddy/shared/messages';
import {
  calendarFeeds,
  calendarGoogleTokens,
  connections,
  feedback,
  friendRequests,
  sessions,
  users,
} from '../../db/schema.ts';
import { rowsNaming } from '../../test/rows-naming.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { stagingDir } from '../files/files.service.ts';
import { jpegWithGps, uploadDirect } from '../files/upload-test-helpers.ts';

describe('DELETE /api/account', () => {
  let t: TestApp;
  let ada: TestUser;
  let friend: TestUser;
  let stranger: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMITS: 'false' });
    ada = await createUser(t.app, { name: 'Ada Lovelace', courses: ['CS 31', 'Math 32A'] });
    friend = await createUser(t.app, { name: 'Bob' });
    stranger = await createUser(t.app, { name: 'Cy' });
    const db = t.app.ctx.db;
    // Ada's footprint across the tables: friendship, requests both ways, feedback, a second session, files.
    await db.insert(connections).values([
      { userId: ada.id, friendId: friend.id },
      { userId: friend.id, friendId: ada.id },
    ]);
    await db.insert(friendRequests).values([
      { id: randomUUID(), fromUserId: ada.id, toUserId: stranger.id },
      { id: randomUUID(), fromUserId: friend.id, toUserId: ada.id, status: 'accepted', acceptedAt: new Date() },
    ]);
    await db.insert(feedback).values({ id: randomUUID(), userId: ada.id, feedback: 'Nice', rating: 5 });
    await db.insert(sessions).values({ id: randomUUID(), userId: ada.id, expiresAt: new Date(Date.now() + 60_000) });
    // Calendar export: a Google authorization and a subscription feed.
    await db
      .insert(calendarGoogleTokens)
      .values({ userId: ada.id, accessToken: 'v1.box', refreshToken: 'v1.box', expiresAt: new Date() });
    await db.insert(calendarFeeds).values({ userId: ada.id, tokenHash: randomUUID(), tokenBox: 'v1.box' });
    const picture = (await uploadDirect(t.app, ada.cookie, await jpegWithGps(120, 120))).json<{ file: UploadedFile }>();
    await t.app.inject({
      method: 'PUT',
      url: '/api/profile',
      headers: { cookie: ada.cookie },
      payload: {
        name: 'Ada Lovelace',
        major: 'Math',
        year: 'Senior',
        courses: [{ id: 'c1', name: 'CS 31' }],
        profilePicture: picture.file.url,
      },
    });
    await t.app.ctx.storage.put(`users/${ada.id}/documents/notes.txt`, Buffer.from('notes'), {
      contentType: 'text/plain',
    });
    // An unfinished resumable upload staged on disk.
    await fetchLike('POST', '/api/resumable', ada.cookie, {
      'Tus-Resumable': '1.0.0',
      'Upload-Length': '300000',
      'Upload-Metadata': `target ${Buffer.from('profile-image').toString('base64')}`,
    });
  });
  afterAll(() => t.close());

  const fetchLike = (method: string, url: string, cookie: string, headers: Record<string, string>) =>
    t.app.inject({ method: method as 'POST', url, headers: { ...headers, cookie } });
  const del = (cookie: string, payload: object) =>
    t.app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie }, payload });

  it('refuses a wrong or missing password and deletes nothing', async () => {
    for (const payload of [{ password: 'wrong-password' }, {}]) {
      const res = await del(ada.cookie, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toEqual({
        code: 'bad_request',
        message: MSG.profile.deleteWrongPassword,
        field: 'password',
      });
    }
    expect(await t.app.ctx.db.select().from(users).where(eq(users.id, ada.id))).toHaveLength(1);
    expect(await t.app.ctx.storage.list(`users/${ada.id}`)).toHaveLength(2);
    expect((await del('', { password: 'password123' })).statusCode).toBe(401);
  });

  it('with the password, leaves no row or file naming the user, and the e-mail can sign up again', async () => {
    const before = await rowsNaming(t.app.ctx.db, [ada.id, ada.email]);
    const tablesBefore = new Set(before.map((r) => r.table));
    for (const table of [
      'users',
      'profiles',
      'profile_courses',
      'sessions',
      'connections',
      'friend_requests',
      'feedback',
      'calendar_google_tokens',
      'calendar_feeds',
    ]) {
      expect(tablesBefore, `expected a row in ${table} before`).toContain(table);
    }
    expect((await readdir(stagingDir(t.config))).some((n) => n.startsWith(`${ada.id}.`))).toBe(true);

    const res = await del(ada.cookie, { password: 'password123' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['set-cookie']).toMatch(/sb_session=;/);

    expect(await rowsNaming(t.app.ctx.db, [ada.id, ada.email])).toEqual([]);
    expect(await t.app.ctx.storage.list(`users/${ada.id}`)).toEqual([]);
    expect((await readdir(stagingDir(t.config))).some((n) => n.startsWith(`${ada.id}.`))).toBe(false);
    // Others keep their own data; the feedback stays, anonymous.
    expect(await t.app.ctx.db.select().from(users).where(eq(users.id, friend.id))).toHaveLength(1);
    expect(await t.app.ctx.db.select().from(feedback)).toEqual([
      expect.objectContaining({ userId: null, feedback: 'Nice' }),
    ]);
    // The old session no longer works.
    const session = await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie: ada.cookie } });
    expect(session.statusCode).toBe(401);

    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email: ada.email, password: 'a-new-password' },
    });
    expect(signup.statusCode).toBe(201);
    expect(await t.app.ctx.db.select().from(users).where(eq(users.email, ada.email))).toHaveLength(1);
  });

  it('asks a social-only account for a fresh sign-in instead of a password', async () => {
    const social = await createUser(t.app);
    await t.app.ctx.db.update(users).set({ passwordHash: null }).where(eq(users.id, social.id));
    await t.app.ctx.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 60 * 60 * 1000) })
      .where(eq(sessions.userId, social.id));
    const stale = await del(social.cookie, {});
    expect(stale.statusCode).toBe(403);
    expect(stale.json().error.message).toBe(MSG.profile.deleteNeedsFreshLogin);
    await t.app.ctx.db.update(sessions).set({ createdAt: new Date() }).where(eq(sessions.userId, social.id));
    expect((await del(social.cookie, {})).statusCode).toBe(200);
    expect(await t.app.ctx.db.select().from(users).where(eq(users.id, social.id))).toHaveLength(0);
  });
});
