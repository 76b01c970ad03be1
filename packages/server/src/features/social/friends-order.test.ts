import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FriendsList, SendRequestResult } from '@studybuddy/shared/social';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { asStudent, cookieFor, insertStudents } from './students.fixture.ts';

describe('friends list order', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('lists friends newest accepted first, not by name', async () => {
    const db = t.app.ctx.db;
    const [me, ...others] = await insertStudents(db, [
      { name: 'Mia Me' },
      { name: 'Alice Adams' },
      { name: 'Bob Brown' },
      { name: 'Cleo Clark' },
    ]);
    const myApi = asStudent(t.app, await cookieFor(db, me!.id));
    const [alice, bob, cleo] = others;
    // Accepted in the order Bob, Cleo, Alice: newest first is Alice, Cleo, Bob (by name it would be Alice, Bob, Cleo).
    for (const friend of [bob!, cleo!, alice!]) {
      const sent = await myApi.post<SendRequestResult>('/api/social/requests', { toUserId: friend.id });
      const theirApi = asStudent(t.app, await cookieFor(db, friend.id));
      expect((await theirApi.post(`/api/social/requests/${sent.body.requestId}/accept`)).status).toBe(200);
    }
    const listed = (await myApi.get<FriendsList>('/api/social/friends')).body.friends.map((f) => f.name);
    expect(listed).toEqual(['Alice Adams', 'Cleo Clark', 'Bob Brown']);

    // Unfriending and becoming friends again moves Bob to the top.
    expect((await myApi.del(`/api/social/friends/${bob!.id}`)).status).toBe(200);
    const again = await myApi.post<SendRequestResult>('/api/social/requests', { toUserId: bob!.id });
    const bobApi = asStudent(t.app, await cookieFor(db, bob!.id));
    expect((await bobApi.post(`/api/social/requests/${again.body.requestId}/accept`)).status).toBe(200);
    const after = (await myApi.get<FriendsList>('/api/social/friends')).body.friends.map((f) => f.name);
    expect(after).toEqual(['Bob Brown', 'Alice Adams', 'Cleo Clark']);
  });
});
