// postgres-leg: simultaneous requests take requests.repository.ts's advisory lock
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, or } from 'drizzle-orm';
import { MSG } from '@studybuddy/shared/messages';
import type { FriendsList, MatchPage, NotificationsList, SendRequestResult } from '@studybuddy/shared/social';
import { connections, friendRequests } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { asStudent, befriend, cookieFor, insertStudents } from './students.fixture.ts';

describe('friend requests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  async function pair(names = ['Ada Lovelace', 'Grace Hopper']) {
    const db = t.app.ctx.db;
    const [a, b] = await insertStudents(
      db,
      names.map((name) => ({ name, courses: ['CS 31'] })),
    );
    return {
      a: { ...a!, api: asStudent(t.app, await cookieFor(db, a!.id)) },
      b: { ...b!, api: asStudent(t.app, await cookieFor(db, b!.id)) },
    };
  }
  const requestsBetween = (x: string, y: string) =>
    t.app.ctx.db
      .select()
      .from(friendRequests)
      .where(
        or(
          and(eq(friendRequests.fromUserId, x), eq(friendRequests.toUserId, y)),
          and(eq(friendRequests.fromUserId, y), eq(friendRequests.toUserId, x)),
        ),
      );
  const connectionRows = (x: string, y: string) =>
    t.app.ctx.db
      .select()
      .from(connections)
      .where(
        or(
          and(eq(connections.userId, x), eq(connections.friendId, y)),
          and(eq(connections.userId, y), eq(connections.friendId, x)),
        ),
      );
  const stateOf = async (api: ReturnType<typeof asStudent>, uid: string) =>
    (await api.get<MatchPage>('/api/social/matches?limit=50')).body.candidates.find((c) => c.uid === uid)?.request;

  it('send creates one pending request both sides see; a duplicate is refused with the info text', async () => {
    const { a, b } = await pair();
    const sent = await a.api.post<SendRequestResult>('/api/social/requests', { toUserId: b.id });
    expect(sent.status).toBe(201);
    expect(sent.body.outcome).toBe('sent');
    expect(await stateOf(a.api, b.id)).toEqual({ kind: 'sent', requestId: sent.body.requestId });
    expect(await stateOf(b.api, a.id)).toEqual({ kind: 'received', requestId: sent.body.requestId });
    const inbox = (await b.api.get<NotificationsList>('/api/social/notifications')).body.requests;
    expect(inbox).toMatchObject([
      { id: sent.body.requestId, from: { uid: a.id, name: 'Ada Lovelace' }, viewed: false },
    ]);

    const again = await a.api.post('/api/social/requests', { toUserId: b.id });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: { code: 'request_exists', message: MSG.match.alreadySent } });
    expect(await requestsBetween(a.id, b.id)).toHaveLength(1);
  });

  it('unsend deletes the pending request on both sides', async () => {
    const { a, b } = await pair();
    const sent = await a.api.post<SendRequestResult>('/api/social/requests', { toUserId: b.id });
    const res = await a.api.del(`/api/social/requests/${sent.body.requestId}`);
    expect(res.status).toBe(200);
    expect(await requestsBetween(a.id, b.id)).toHaveLength(0);
    expect((await b.api.get<NotificationsList>('/api/social/notifications')).body.requests).toEqual([]);
    expect(await stateOf(a.api, b.id)).toEqual({ kind: 'none' });
    expect(await stateOf(b.api, a.id)).toEqual({ kind: 'none' });
    // Unsending again: the request is gone.
    const twice = await a.api.del(`/api/social/requests/${sent.body.requestId}`);
    expect(twice.status).toBe(404);
    expect(twice.body).toMatchObject({ error: { message: MSG.match.requestNotFound } });
  });

  it('accept sets accepted and acceptedAt and adds both connections; they leave each other’s matches', async () => {
    const { a, b } = await pair();
    const sent = await a.api.post<SendRequestResult>('/api/social/requests', { toUserId: b.id });
    const before = Date.now();
    const res = await b.api.post(`/api/social/requests/${sent.body.requestId}/accept`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ friendId: a.id });
    const [row] = await requestsBetween(a.id, b.id);
    expect(row).toMatchObject({ status: 'accepted' });
    expect(row!.acceptedAt!.getTime()).toBeGreaterThan(before - 5000);
    expect(await connectionRows(a.id, b.id)).toHaveLength(2);
    expect((await a.api.get<FriendsList>('/api/social/friends')).body.friends.map((f) => f.uid)).toEqual([b.id]);
    expect((await b.api.get<FriendsList>('/api/social/friends')).body.friends.map((f) => f.uid)).toEqual([a.id]);
    expect(await stateOf(a.api, b.id)).toBeUndefined();
    expect(await stateOf(b.api, a.id)).toBeUndefined();
    // Accepting twice is harmless; a request to a friend is refused.
    expect((await b.api.post(`/api/social/requests/${sent.body.requestId}/accept`)).status).toBe(200);
    expect(await connectionRows(a.id, b.id)).toHaveLength(2);
    const toFriend = await a.api.post('/api/social/requests', { toUserId: b.id });
    expect(toFriend.status).toBe(409);
    expect(toFriend.body).toMatchObject({ error: { code: 'already_friends' } });
  });

  it('decline marks the request declined, no friendship; the sender may ask again later', async () => {
    const { a, b } = await pair();
    const sent = await a.api.post<SendRequestResult>('/api/social/requests', { toUserId: b.id });
    expect((await b.api.post(`/api/social/requests/${sent.body.requestId}/decline`)).status).toBe(200);
    expect(await requestsBetween(a.id, b.id)).toMatchObject([{ status: 'declined', acceptedAt: null }]);
    expect(await connectionRows(a.id, b.id)).toHaveLength(0);
    expect((await b.api.get<NotificationsList>('/api/social/notifications')).body.requests).toEqual([]);
    expect((await b.api.post(`/api/social/requests/${sent.body.requestId}/decline`)).status).toBe(404);
    expect((await b.api.post(`/api/social/requests/${sent.body.requestId}/accept`)).status).toBe(404);
    expect((await a.api.post('/api/social/requests', { toUserId: b.id })).status).toBe(201);
  });

  it('sending to someone who already asked you makes you friends at once', async () => {
    const { a, b } = await pair();
    await a.api.post('/api/social/requests', { toUserId: b.id });
    const back = await b.api.post<SendRequestResult>('/api/social/requests', { toUserId: a.id });
    expect(back.status).toBe(200);
    expect(back.body.outcome).toBe('connected');
    expect(await connectionRows(a.id, b.id)).toHaveLength(2);
    expect((await requestsBetween(a.id, b.id)).map((r) => r.status)).toEqual(['accepted']);
  });

  it('two students asking each other at the same moment end up friends, never stuck', async () => {
    const pairs = await Promise.all(Array.from({ length: 8 }, (_, i) => pair([`Mutual ${i}a`, `Mutual ${i}b`])));
    const results = await Promise.all(
      pairs.flatMap(({ a, b }) => [
        a.api.post<SendRequestResult>('/api/social/requests', { toUserId: b.id }),
        b.api.post<SendRequestResult>('/api/social/requests', { toUserId: a.id }),
      ]),
    );
    for (const r of results) expect([200, 201]).toContain(r.status);
    for (const { a, b } of pairs) {
      expect(await connectionRows(a.id, b.id)).toHaveLength(2);
      const rows = await requestsBetween(a.id, b.id);
      expect(rows.filter((r) => r.status === 'pending')).toEqual([]);
      expect(rows.every((r) => r.acceptedAt !== null)).toBe(true);
    }
  });

  it('refuses requests to yourself, to another college, to incomplete or unknown profiles, and bad input', async () => {
    const db = t.app.ctx.db;
    const { a } = await pair();
    const [cmu, incomplete] = await insertStudents(db, [
      { name: 'Carnegie Student', college: 'CMU' },
      { name: 'No Picture', customPicture: false },
    ]);
    const self = await a.api.post('/api/social/requests', { toUserId: a.id });
    expect(self).toEqual({
      status: 400,
      body: { error: { code: 'self_request', message: MSG.match.selfRequest, field: 'toUserId' } },
    });
    const other = await a.api.post('/api/social/requests', { toUserId: cmu!.id });
    expect(other).toEqual({ status: 403, body: { error: { code: 'other_college', message: MSG.match.otherCollege } } });
    expect((await a.api.post('/api/social/requests', { toUserId: incomplete!.id })).status).toBe(404);
    expect((await a.api.post('/api/social/requests', { toUserId: 'nobody' })).status).toBe(404);
    const missing = await a.api.post('/api/social/requests', {});
    expect(missing).toEqual({
      status: 400,
      body: { error: { code: 'validation_failed', message: MSG.match.invalidMatch, field: 'toUserId' } },
    });
    expect((await a.api.post('/api/social/requests', { toUserId: 42 })).status).toBe(400);
    expect((await a.api.get('/api/social/matches?cursor=not-a-cursor')).status).toBe(400);
    expect((await a.api.get('/api/social/matches?limit=1000')).status).toBe(400);
    expect(await db.select().from(friendRequests).where(eq(friendRequests.fromUserId, a.id))).toEqual([]);
  });

  it('unfriend removes each from the other’s connections', async () => {
    const db = t.app.ctx.db;
    const { a, b } = await pair();
    await befriend(db, a.id, b.id);
    const res = await a.api.del(`/api/social/friends/${b.id}`);
    expect(res.status).toBe(200);
    expect(await connectionRows(a.id, b.id)).toHaveLength(0);
    expect((await b.api.get<FriendsList>('/api/social/friends')).body.friends).toEqual([]);
    const again = await a.api.del(`/api/social/friends/${b.id}`);
    expect(again.status).toBe(404);
    // Unfriended students are suggested to each other again.
    expect(await stateOf(b.api, a.id)).toEqual({ kind: 'none' });
  });
});
