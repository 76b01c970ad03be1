import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  CHAT_LIMITS,
  type ChatInfo,
  type ChatList,
  type MessagePage,
  type UnreadCounts,
} from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import { chats, messages, profiles } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { befriend, chatRef, friends, get, history, markRead, post } from './chat.test-kit.ts';

describe('one-to-one chat', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let eve: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    [ada, bob] = await friends(t.app, 2, ['Ada Lovelace', 'Bob Babbage']);
    eve = await createUser(t.app, { name: 'Eve Outsider' });
  });
  afterAll(() => t.close());

  const rowsWithId = (id: string) => t.app.ctx.db.select().from(messages).where(eq(messages.id, id));

  it('stores a message once whatever the retries and acknowledges after the commit', async () => {
    const id = randomUUID();
    const first = await post(t.app, ada, chatRef(ada, bob), { id, content: 'Hello Bob' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      created: true,
      message: { id, senderName: 'Ada Lovelace', content: 'Hello Bob' },
    });
    // The acknowledged message is already in the database.
    expect(await rowsWithId(id)).toHaveLength(1);

    const retry = await post(t.app, ada, chatRef(ada, bob), { id, content: 'Hello Bob' });
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual({ created: false, message: first.json().message });

    const burstId = randomUUID();
    const burst = await Promise.all(
      Array.from({ length: 8 }, () => post(t.app, ada, chatRef(ada, bob), { id: burstId, content: 'again' })),
    );
    expect(burst.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(burst.map((r) => r.json().message.cursor)).size).toBe(1);
    expect(await rowsWithId(burstId)).toHaveLength(1);
  });

  it('refuses an id another user or another conversation already used', async () => {
    const id = randomUUID();
    expect((await post(t.app, ada, chatRef(ada, bob), { id, content: 'mine' })).statusCode).toBe(201);
    const stolen = await post(t.app, bob, chatRef(ada, bob), { id, content: 'not yours' });
    expect(stolen.statusCode).toBe(409);
    expect(stolen.json().error.message).toBe(MSG.chat.idConflict);
    expect((await rowsWithId(id))[0]!.content).toBe('mine');
  });

  it('keeps the last message fields on the chat', async () => {
    await post(t.app, bob, chatRef(ada, bob), { content: 'Latest from Bob' });
    const [row] = await t.app.ctx.db
      .select()
      .from(chats)
      .where(eq(chats.id, chatRef(ada, bob).id));
    expect(row).toMatchObject({ lastMessage: 'Latest from Bob', lastMessageSender: bob.id });
    expect(row!.lastMessageTime).toBeInstanceOf(Date);
    const info = (await get(t.app, ada, `/api/chats/${chatRef(ada, bob).id}`)).json() as ChatInfo;
    expect(info).toMatchObject({ friend: { id: bob.id, name: 'Bob Babbage' }, lastMessage: 'Latest from Bob' });
  });

  it('refuses empty, blank and too long text, and unknown types, without storing anything', async () => {
    const before = (await t.app.ctx.db.select().from(messages)).length;
    for (const [body, message] of [
      [{ content: '' }, MSG.chat.emptyMessage],
      [{ content: '   \n ' }, MSG.chat.emptyMessage],
      [{ content: 'x'.repeat(CHAT_LIMITS.textMaxChars + 1) }, MSG.chat.tooLong],
    ] as const) {
      const res = await post(t.app, ada, chatRef(ada, bob), body);
      expect(res.statusCode).toBe(400);
      // The socket names the field within its frame.
      expect(res.json().error).toMatchObject({ message, field: 'message.content' });
    }
    const badType = await post(t.app, ada, chatRef(ada, bob), { type: 'video', content: 'x' });
    expect(badType.statusCode).toBe(400);
    const notUuid = await post(t.app, ada, chatRef(ada, bob), { id: 'abc', content: 'hi' });
    expect(notUuid.statusCode).toBe(400);
    expect((await t.app.ctx.db.select().from(messages)).length).toBe(before);
  });

  it('lets only the two friends read or post, and only while friends', async () => {
    const ref = chatRef(ada, bob);
    for (const res of [await post(t.app, eve, ref, { content: 'let me in' }), await history(t.app, eve, ref)]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toBe(MSG.chat.notFriends);
    }
    // A chat with a non-friend cannot be started.
    const withEve = await post(t.app, ada, chatRef(ada, eve), { content: 'hi stranger' });
    expect(withEve.statusCode).toBe(403);
    expect((await get(t.app, eve, `/api/chats/${ref.id}`)).statusCode).toBe(403);
    // Malformed ids are refused the same way.
    const reversed = [ada.id, bob.id].sort().reverse().join('_');
    for (const id of [`${ada.id}_${ada.id}`, reversed, 'nonsense']) {
      expect((await post(t.app, ada, { kind: 'chat', id }, { content: 'x' })).statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: `/api/chats/${ref.id}/messages` })).statusCode).toBe(401);
  });

  it('pages history backwards, oldest first within a page', async () => {
    const [a, b] = await friends(t.app, 2);
    const ref = chatRef(a!, b!);
    for (let i = 1; i <= 35; i++)
      expect((await post(t.app, i % 2 ? a! : b!, ref, { content: `m${i}` })).statusCode).toBe(201);
    const newest = (await history(t.app, a!, ref)).json() as MessagePage;
    expect(newest.messages.map((m) => m.content)).toEqual(Array.from({ length: 30 }, (_, i) => `m${i + 6}`));
    expect(newest.hasMore).toBe(true);
    const older = (await history(t.app, a!, ref, `?before=${newest.messages[0]!.cursor}`)).json() as MessagePage;
    expect(older.messages.map((m) => m.content)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(older.hasMore).toBe(false);
    expect((await history(t.app, a!, ref, '?limit=0')).statusCode).toBe(400);
  });

  it('counts unread messages per friend from the messages after the last read one', async () => {
    const [me, f1, f2] = await friends(t.app, 3);
    const unread = async () => (await get(t.app, me!, '/api/chats/unread')).json() as UnreadCounts;
    expect(await unread()).toEqual({ total: 0, byFriend: {} });

    const sent: number[] = [];
    for (let i = 0; i < 3; i++)
      sent.push((await post(t.app, f1!, chatRef(me!, f1!), { content: `f1 ${i}` })).json().message.cursor);
    await post(t.app, f2!, chatRef(me!, f2!), { content: 'f2 hello' });
    await post(t.app, me!, chatRef(me!, f1!), { content: 'my own messages never count' });
    expect(await unread()).toEqual({ total: 4, byFriend: { [f1!.id]: 3, [f2!.id]: 1 } });

    // Reading up to the second message leaves one; opening the chat (no cursor) reads everything.
    expect((await markRead(t.app, me!, chatRef(me!, f1!), sent[1])).json()).toEqual({ lastRead: sent[1], unread: 1 });
    expect((await unread()).byFriend[f1!.id]).toBe(1);
    expect((await markRead(t.app, me!, chatRef(me!, f1!))).json().unread).toBe(0);
    // The read position never moves back.
    expect((await markRead(t.app, me!, chatRef(me!, f1!), sent[0])).json().lastRead).toBeGreaterThan(sent[1]!);
    expect(await unread()).toEqual({ total: 1, byFriend: { [f2!.id]: 1 } });

    const list = (await get(t.app, me!, '/api/chats')).json() as ChatList;
    expect(list.chats.find((c) => c.friendId === f2!.id)).toMatchObject({ unread: 1, lastMessage: 'f2 hello' });
    expect(list.chats.find((c) => c.friendId === f1!.id)).toMatchObject({ unread: 0, lastMessageSender: me!.id });

    // The friend sees how far the user has read (the 'Seen' mark).
    const info = (await get(t.app, f1!, `/api/chats/${chatRef(me!, f1!).id}`)).json() as ChatInfo;
    expect(info.friendLastRead).toBeGreaterThanOrEqual(sent[2]!);
  });

  it('stores the sender name with the Anonymous fallback', async () => {
    const nameless = await createUser(t.app, { name: 'Temp' });
    const friend = await createUser(t.app, { name: 'Friend' });
    await befriend(t.app, nameless, friend);
    await t.app.ctx.db.update(profiles).set({ name: '  ' }).where(eq(profiles.userId, nameless.id));
    const res = await post(t.app, nameless, chatRef(nameless, friend), { content: 'who am I' });
    expect(res.json().message.senderName).toBe(MSG.chat.anonymous);
  });
});
