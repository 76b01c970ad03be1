import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { GroupDetail, GroupList } from '@studybuddy/shared/groups';
import { MSG } from '@studybuddy/shared/messages';
import { groups, messages } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { befriend, friends, get, history, pngBytes, post, upload } from '../chat/chat.test-kit.ts';

describe('groups', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let cy: TestUser;
  let eve: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    [ada, bob, cy] = await friends(t.app, 3, ['Ada', 'Bob', 'Cy']);
    eve = await createUser(t.app, { name: 'Eve' });
    await befriend(t.app, bob, eve);
  });
  afterAll(() => t.close());

  const create = (user: TestUser, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/groups', headers: { cookie: user.cookie }, payload });
  const add = (user: TestUser, id: string, memberIds: string[]) =>
    t.app.inject({
      method: 'POST',
      url: `/api/groups/${id}/members`,
      headers: { cookie: user.cookie },
      payload: { memberIds },
    });
  const leave = (user: TestUser, id: string) =>
    t.app.inject({ method: 'POST', url: `/api/groups/${id}/leave`, headers: { cookie: user.cookie }, payload: {} });
  const countGroups = async () => (await t.app.ctx.db.select().from(groups)).length;

  it('needs a non-blank name and at least one friend to create', async () => {
    const before = await countGroups();
    for (const [payload, message] of [
      [{ name: '   ', memberIds: [bob.id] }, MSG.groups.nameRequired],
      [{ memberIds: [bob.id] }, MSG.groups.nameRequired],
      [{ name: 'Study', memberIds: [] }, MSG.groups.selectFriend],
      [{ name: 'Study' }, MSG.groups.selectFriend],
      [{ name: 'Study', memberIds: [ada.id] }, MSG.groups.selectFriend],
    ] as const) {
      const res = await create(ada, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
    const stranger = await create(ada, { name: 'Study', memberIds: [bob.id, eve.id] });
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json().error.message).toBe(MSG.groups.onlyFriends);
    expect(await countGroups()).toBe(before);
  });

  it('creates a group whose creator is the admin, lists it and shares its messages with the members', async () => {
    const res = await create(ada, { name: '  Algorithms  ', memberIds: [bob.id] });
    expect(res.statusCode).toBe(201);
    const group = res.json() as GroupDetail;
    expect(group).toMatchObject({ kind: 'group', name: 'Algorithms', createdBy: ada.id, memberCount: 2 });
    expect(group.members).toEqual([
      expect.objectContaining({ id: ada.id, name: 'Ada', isAdmin: true }),
      expect.objectContaining({ id: bob.id, name: 'Bob', isAdmin: false }),
    ]);
    const ref = { kind: 'group' as const, id: group.id };
    expect((await post(t.app, bob, ref, { content: 'Hi all' })).statusCode).toBe(201);
    const list = (await get(t.app, ada, '/api/groups')).json() as GroupList;
    expect(list.groups.find((g) => g.id === group.id)).toMatchObject({
      lastMessage: 'Hi all',
      lastMessageSender: bob.id,
      unread: 1,
    });
    expect((await get(t.app, ada, '/api/groups?kind=hot')).json().groups).toEqual([]);
  });

  it('lets a member add their own friends, refuses non-members with the exact text and non-friends', async () => {
    const group = (await create(ada, { name: 'Physics', memberIds: [bob.id] })).json() as GroupDetail;
    const outsider = await add(eve, group.id, [eve.id]);
    expect(outsider.statusCode).toBe(403);
    expect(outsider.json().error.message).toBe(MSG.groups.notAuthorized);
    // Cy is Ada's friend but not Eve's... and Eve is Bob's friend but not Ada's.
    const notFriend = await add(ada, group.id, [eve.id]);
    expect(notFriend.statusCode).toBe(403);
    expect(notFriend.json().error.message).toBe(MSG.groups.onlyFriends);
    expect((await add(ada, group.id, [])).json().error.message).toBe(MSG.groups.selectFriend);

    const byBob = await add(bob, group.id, [eve.id]);
    expect(byBob.statusCode).toBe(200);
    expect((byBob.json() as GroupDetail).members.map((m) => m.id)).toEqual(
      expect.arrayContaining([ada.id, bob.id, eve.id]),
    );
    // Adding someone already in changes nothing.
    expect((await add(ada, group.id, [bob.id])).json().memberCount).toBe(3);
    expect((await add(ada, 'no-such-group', [bob.id])).json().error.message).toBe(MSG.groups.notAuthorized);
  });

  it('keeps non-members out of the group, its messages and its files', async () => {
    const group = (await create(ada, { name: 'Secret', memberIds: [bob.id] })).json() as GroupDetail;
    const ref = { kind: 'group' as const, id: group.id };
    const image = (await upload(t.app, ada, ref, 'image', await pngBytes(), 'image/png')).json().url as string;
    expect((await get(t.app, bob, image)).statusCode).toBe(200);
    for (const res of [
      await get(t.app, cy, `/api/groups/${group.id}`),
      await history(t.app, cy, ref),
      await post(t.app, cy, ref, { content: 'hello?' }),
      await upload(t.app, cy, ref, 'image', await pngBytes(), 'image/png'),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toBe(MSG.groups.notMember);
    }
    expect((await get(t.app, cy, image)).statusCode).toBe(403);
    expect((await get(t.app, cy, '/api/groups')).json().groups.map((g: { id: string }) => g.id)).not.toContain(
      group.id,
    );
  });

  it('leaving removes the membership; the last one out deletes a regular group with its messages', async () => {
    const group = (await create(ada, { name: 'Short-lived', memberIds: [bob.id] })).json() as GroupDetail;
    const ref = { kind: 'group' as const, id: group.id };
    await post(t.app, ada, ref, { content: 'bye soon' });
    expect((await leave(ada, group.id)).statusCode).toBe(204);
    expect((await history(t.app, ada, ref)).statusCode).toBe(403);
    expect((await get(t.app, bob, `/api/groups/${group.id}`)).json().members.map((m: { id: string }) => m.id)).toEqual([
      bob.id,
    ]);
    expect((await leave(ada, group.id)).json().error.message).toBe(MSG.groups.notMember);

    expect((await leave(bob, group.id)).statusCode).toBe(204);
    expect(await t.app.ctx.db.select().from(groups).where(eq(groups.id, group.id))).toEqual([]);
    expect(await t.app.ctx.db.select().from(messages).where(eq(messages.conversationId, group.id))).toEqual([]);
  });

  it('lists the user’s friends for the group modals', async () => {
    const res = (await get(t.app, ada, '/api/groups/friend-options')).json();
    expect(res.friends.map((f: { name: string }) => f.name)).toEqual(['Bob', 'Cy']);
  });
});
