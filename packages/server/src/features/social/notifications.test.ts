import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FriendsList, NotificationBadge, NotificationsList, SendRequestResult } from '@studybuddy/shared/social';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { asStudent, cookieFor, insertStudents } from './students.fixture.ts';

describe('notifications and friends list', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('lists pending requests to me newest first; loading marks them viewed; the badge follows', async () => {
    const db = t.app.ctx.db;
    const made = await insertStudents(db, [{ name: 'Me' }, { name: 'Zed First' }, { name: 'Amy Second' }]);
    const [me, first, second] = await Promise.all(
      made.map(async (s) => ({ ...s, api: asStudent(t.app, await cookieFor(db, s.id)) })),
    );
    const badge = async () => (await me!.api.get<NotificationBadge>('/api/social/notifications/badge')).body;
    expect(await badge()).toEqual({ pending: 0, unviewed: false });

    await first!.api.post('/api/social/requests', { toUserId: me!.id });
    const { body: sent } = await second!.api.post<SendRequestResult>('/api/social/requests', { toUserId: me!.id });
    expect(await badge()).toEqual({ pending: 2, unviewed: true });

    const list = (await me!.api.get<NotificationsList>('/api/social/notifications')).body.requests;
    expect(list.map((r) => r.from.name)).toEqual(['Amy Second', 'Zed First']);
    expect(list[0]).toEqual({
      id: sent.requestId,
      from: { uid: second!.id, name: 'Amy Second', profilePicture: `/pictures/${second!.id}.jpg` },
      viewed: false,
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });

    expect((await me!.api.post('/api/social/notifications/viewed')).body).toEqual({ updated: 2 });
    expect(await badge()).toEqual({ pending: 2, unviewed: false });
    expect((await me!.api.post('/api/social/notifications/viewed')).body).toEqual({ updated: 0 });

    await me!.api.post(`/api/social/requests/${sent.requestId}/accept`);
    expect(await badge()).toEqual({ pending: 1, unviewed: false });
    // Someone else's badge is untouched by my viewing.
    expect((await first!.api.get<NotificationBadge>('/api/social/notifications/badge')).body).toEqual({
      pending: 0,
      unviewed: false,
    });
  });

  it('lists friends alphabetically with name, picture, major and year', async () => {
    const db = t.app.ctx.db;
    const made = await insertStudents(db, [
      { name: 'Center' },
      { name: 'zoe Last', major: 'Art', year: 'Senior' },
      { name: 'Anna First' },
    ]);
    const [me, zoe, anna] = await Promise.all(
      made.map(async (s) => ({ ...s, api: asStudent(t.app, await cookieFor(db, s.id)) })),
    );
    for (const f of [zoe!, anna!]) {
      const { body } = await f.api.post<SendRequestResult>('/api/social/requests', { toUserId: me!.id });
      await me!.api.post(`/api/social/requests/${body.requestId}/accept`);
    }
    const friends = (await me!.api.get<FriendsList>('/api/social/friends')).body.friends;
    expect(friends).toEqual([
      {
        uid: anna!.id,
        name: 'Anna First',
        profilePicture: `/pictures/${anna!.id}.jpg`,
        major: 'Computer Science',
        year: 'Junior',
      },
      { uid: zoe!.id, name: 'zoe Last', profilePicture: `/pictures/${zoe!.id}.jpg`, major: 'Art', year: 'Senior' },
    ]);
  });

  it('announces every change to both students over the real-time channel (friendRequest.changed)', async () => {
    const db = t.app.ctx.db;
    const realtime = t.app.ctx.realtime;
    const events: { users: string[]; type: string }[] = [];
    const original = realtime.toUsers.bind(realtime);
    realtime.toUsers = (users, event) => {
      events.push({ users: [...users].sort(), type: event.type });
      original(users, event);
    };
    try {
      const [a, b] = await insertStudents(db, [{ name: 'Live A' }, { name: 'Live B' }]);
      const aApi = asStudent(t.app, await cookieFor(db, a!.id));
      const bApi = asStudent(t.app, await cookieFor(db, b!.id));
      const both = [a!.id, b!.id].sort();
      const { body } = await aApi.post<SendRequestResult>('/api/social/requests', { toUserId: b!.id });
      await aApi.del(`/api/social/requests/${body.requestId}`);
      const again = await aApi.post<SendRequestResult>('/api/social/requests', { toUserId: b!.id });
      await bApi.post('/api/social/notifications/viewed');
      await bApi.post(`/api/social/requests/${again.body.requestId}/accept`);
      await aApi.del(`/api/social/friends/${b!.id}`);
      expect(events).toEqual([
        { users: both, type: 'friendRequest.changed' },
        { users: both, type: 'friendRequest.changed' },
        { users: both, type: 'friendRequest.changed' },
        { users: [b!.id], type: 'friendRequest.changed' },
        { users: both, type: 'friendRequest.changed' },
        { users: both, type: 'friendRequest.changed' },
      ]);
    } finally {
      realtime.toUsers = original;
    }
  });
});
