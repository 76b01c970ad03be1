import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MSG } from '@studybuddy/shared/messages';
import type { MatchPage, PublicProfile, SearchResult, SendRequestResult } from '@studybuddy/shared/social';
import { friendRequests } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { asStudent, befriend, cookieFor, insertStudents } from './students.fixture.ts';

describe('social authorisation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  async function students(specs: Parameters<typeof insertStudents>[1]) {
    const db = t.app.ctx.db;
    const made = await insertStudents(db, specs);
    return Promise.all(made.map(async (s) => ({ ...s, api: asStudent(t.app, await cookieFor(db, s.id)) })));
  }
  const statusOf = async (id: string) =>
    (await t.app.ctx.db.select().from(friendRequests).where(eq(friendRequests.id, id)))[0]?.status;

  it('only the addressee may accept or decline, only the sender may unsend', async () => {
    const [a, b, c] = await students([{ name: 'Sender A' }, { name: 'Addressee B' }, { name: 'Stranger C' }]);
    const { body } = await a!.api.post<SendRequestResult>('/api/social/requests', { toUserId: b!.id });
    const id = body.requestId;
    const forbidden = { error: { code: 'forbidden', message: MSG.api.forbidden } };

    for (const who of [a!, c!]) {
      expect(await who.api.post(`/api/social/requests/${id}/accept`)).toEqual({ status: 403, body: forbidden });
      expect(await who.api.post(`/api/social/requests/${id}/decline`)).toEqual({ status: 403, body: forbidden });
    }
    for (const who of [b!, c!]) {
      expect(await who.api.del(`/api/social/requests/${id}`)).toEqual({ status: 403, body: forbidden });
    }
    expect(await statusOf(id)).toBe('pending');
    expect((await c!.api.get<{ requests: unknown[] }>('/api/social/notifications')).body.requests).toEqual([]);
    expect((await b!.api.post(`/api/social/requests/${id}/accept`)).status).toBe(200);
    expect(await statusOf(id)).toBe('accepted');
  });

  it("cannot read another college's candidates, in suggestions or in search", async () => {
    const [ucla, cmu] = await students([
      { name: 'Bruin Viewer', courses: ['CS 31'] },
      { name: 'Tartan Viewer', college: 'CMU', courses: ['CS 31'] },
      { name: 'Tartan Two', college: 'CMU', courses: ['CS 31'] },
    ]);
    const uclaPage = (await ucla!.api.get<MatchPage>('/api/social/matches?limit=50')).body;
    expect(uclaPage.candidates.every((c) => c.college === 'UCLA')).toBe(true);
    const cmuPage = (await cmu!.api.get<MatchPage>('/api/social/matches?limit=50')).body;
    expect(cmuPage.candidates.map((c) => c.name)).toEqual(['Tartan Two']);
    expect((await cmu!.api.get<SearchResult>('/api/social/search?q=bruin')).body.users).toEqual([]);
    // A cursor is only a position: it cannot widen the viewer's college.
    const cursor = Buffer.from(JSON.stringify([1000, '2999-01-01T00:00:00.000000Z', 'zzzz'])).toString('base64url');
    const forged = (await cmu!.api.get<MatchPage>(`/api/social/matches?cursor=${cursor}`)).body;
    expect(forged.candidates.map((c) => c.name)).toEqual(['Tartan Two']);
  });

  it('profile summaries: friends and the two sides of a pending request only; never e-mail or LMS fields', async () => {
    const [a, friend, sender, stranger] = await students([
      { name: 'Owner A', bio: 'Hi', courses: ['Math 32A'] },
      { name: 'Friend F', courses: ['math 32a'], additionalImages: ['/pictures/extra.jpg'] },
      { name: 'Sender S' },
      { name: 'Stranger X' },
    ]);
    await befriend(t.app.ctx.db, a!.id, friend!.id);
    await sender!.api.post('/api/social/requests', { toUserId: a!.id });

    const ofFriend = await a!.api.get<PublicProfile>(`/api/social/profiles/${friend!.id}`);
    expect(ofFriend.status).toBe(200);
    expect(ofFriend.body).toEqual({
      uid: friend!.id,
      name: 'Friend F',
      college: 'UCLA',
      major: 'Computer Science',
      year: 'Junior',
      bio: '',
      profilePicture: `/pictures/${friend!.id}.jpg`,
      images: [`/pictures/${friend!.id}.jpg`, '/pictures/extra.jpg'],
      sharedCourses: ['Math 32A'],
    });
    expect((await a!.api.get(`/api/social/profiles/${sender!.id}`)).status).toBe(200);
    expect((await sender!.api.get(`/api/social/profiles/${a!.id}`)).status).toBe(200);
    const refused = await a!.api.get(`/api/social/profiles/${stranger!.id}`);
    expect(refused).toEqual({
      status: 403,
      body: { error: { code: 'forbidden', message: MSG.friends.profileUnavailable } },
    });
    expect((await stranger!.api.get(`/api/social/profiles/${a!.id}`)).status).toBe(403);
  });

  it('refuses signed-out callers and students whose profile is incomplete', async () => {
    const anonymous = asStudent(t.app, '');
    for (const [method, url] of [
      ['GET', '/api/social/matches'],
      ['GET', '/api/social/search?q=a'],
      ['POST', '/api/social/requests'],
      ['POST', '/api/social/requests/x/accept'],
      ['POST', '/api/social/requests/x/decline'],
      ['DELETE', '/api/social/requests/x'],
      ['GET', '/api/social/notifications'],
      ['POST', '/api/social/notifications/viewed'],
      ['GET', '/api/social/notifications/badge'],
      ['GET', '/api/social/friends'],
      ['DELETE', '/api/social/friends/x'],
      ['GET', '/api/social/profiles/x'],
    ] as const) {
      const res = await anonymous.call(method, url, method === 'POST' ? {} : undefined);
      expect(res.status, `${method} ${url}`).toBe(401);
    }
    const [incomplete] = await students([{ name: 'Half Done', customPicture: false }]);
    const res = await incomplete!.api.get('/api/social/matches');
    expect(res).toEqual({
      status: 403,
      body: { error: { code: 'profile_incomplete', message: MSG.profile.completeFirst } },
    });
  });
});
