import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { conversationTopic, type ServerFrame, type SinceResult } from '@studybuddy/shared/realtime';
import { MSG } from '@studybuddy/shared/messages';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { chatRef, friends, get, markRead, post } from '../../features/chat/chat.test-kit.ts';
import { WsTestClient } from './ws-test-client.ts';

const isType =
  <K extends ServerFrame['type']>(type: K) =>
  (f: ServerFrame): f is Extract<ServerFrame, { type: K }> =>
    f.type === type;

describe('real-time channel at /api/ws', () => {
  let t: TestApp;
  let base: string;
  let ada: TestUser;
  let bob: TestUser;
  let cy: TestUser;
  let eve: TestUser;
  const clients: WsTestClient[] = [];
  const connect = async (user: TestUser) => {
    const c = await WsTestClient.connect(base, user.cookie);
    clients.push(c);
    await c.waitFor(isType('hello'));
    return c;
  };

  beforeAll(async () => {
    t = await createTestApp();
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    [ada, bob, cy] = await friends(t.app, 3, ['Ada', 'Bob', 'Cy']);
    eve = await createUser(t.app, { name: 'Eve' });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(() => t.close());

  it('refuses a handshake without a session or from another site', async () => {
    await expect(WsTestClient.connect(base, '')).rejects.toThrow('401');
    await expect(WsTestClient.connect(base, ada.cookie, { origin: 'https://evil.example' })).rejects.toThrow('403');
    const ok = await WsTestClient.connect(base, ada.cookie, { origin: base });
    clients.push(ok);
    expect(await ok.waitFor(isType('hello'))).toMatchObject({ type: 'hello' });
  });

  it('delivers a new message to both friends’ tabs and the recipient’s unread count, and nobody else', async () => {
    const [adaTab1, adaTab2, bobTab, eveTab] = [
      await connect(ada),
      await connect(ada),
      await connect(bob),
      await connect(eve),
    ];
    const sent = (await post(t.app, ada, chatRef(ada, bob), { content: 'live!' })).json().message;
    for (const tab of [adaTab1, adaTab2, bobTab]) {
      expect(await tab.waitForEvent('message.created', (e) => e.message.id === sent.id)).toEqual({
        type: 'message.created',
        message: sent,
      });
    }
    expect(await bobTab.waitForEvent('unread.changed')).toEqual({
      type: 'unread.changed',
      conversation: chatRef(ada, bob),
      friendId: ada.id,
      count: 1,
    });
    // Each new message carries the count derived from the stored messages.
    let latest = sent;
    for (const text of ['two', 'three'])
      latest = (await post(t.app, ada, chatRef(ada, bob), { content: text })).json().message;
    expect(await bobTab.waitForEvent('unread.changed', (e) => e.count === 3)).toMatchObject({ friendId: ada.id });
    expect(bobTab.events.flatMap((e) => (e.type === 'unread.changed' ? [e.count] : []))).toEqual([1, 2, 3]);
    // Opening the chat resets the count, on every tab of the reader, and tells the friend (Seen).
    await markRead(t.app, bob, chatRef(ada, bob));
    expect(await bobTab.waitForEvent('unread.changed', (e) => e.count === 0)).toMatchObject({ count: 0 });
    expect(await adaTab1.waitForEvent('chat.updated')).toMatchObject({
      read: { userId: bob.id, cursor: latest.cursor },
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(eveTab.events).toEqual([]);
  });

  it('resyncs a reconnecting client from its cursor: everything missed, once, and nothing of others', async () => {
    const first = await connect(cy);
    const hello = await first.waitFor(isType('hello'));
    await first.close();
    const missed: string[] = [];
    for (let i = 0; i < 3; i++)
      missed.push((await post(t.app, ada, chatRef(ada, cy), { content: `while away ${i}` })).json().message.id);
    await post(t.app, ada, chatRef(ada, bob), { content: 'not for Cy' });

    // Reconnecting with the cursor in the address: the missed messages come first, then resync.done.
    const again = await WsTestClient.connect(base, cy.cookie, {}, hello.cursor);
    clients.push(again);
    const done = await again.waitFor(isType('resync.done'));
    const ids = again.events.flatMap((e) => (e.type === 'message.created' ? [e.message.id] : []));
    expect(ids).toEqual(missed);
    expect(done.truncated).toBe(false);
    expect(done.cursor).toBeGreaterThan(hello.cursor);

    // The resync op answers the same on an open socket.
    const op = await connect(cy);
    op.send({ op: 'resync', cursor: hello.cursor });
    expect(await op.waitFor(isType('resync.done'))).toEqual(done);
    expect(op.events.map((e) => (e.type === 'message.created' ? e.message.id : ''))).toEqual(missed);
    await expect(WsTestClient.connect(base, cy.cookie, {}, -5)).rejects.toThrow('400');

    // The polling fallback answers the same.
    const polled = (await get(t.app, cy, `/api/realtime/since?cursor=${hello.cursor}`)).json() as SinceResult;
    expect(polled.events.map((e) => (e.type === 'message.created' ? e.message.id : ''))).toEqual(missed);
    expect(polled.cursor).toBe(done.cursor);
    // From the newest cursor there is nothing new (messages of the last seconds may be repeated; ids are kept).
    const after = (await get(t.app, cy, `/api/realtime/since?cursor=${done.cursor}`)).json() as SinceResult;
    expect(after.events.every((e) => e.type === 'message.created' && missed.includes(e.message.id))).toBe(true);
    expect((await get(t.app, cy, '/api/realtime/since?cursor=-1')).statusCode).toBe(400);
    const start = (await get(t.app, cy, '/api/realtime/since')).json() as SinceResult;
    expect(start).toEqual({ events: [], cursor: expect.any(Number), truncated: false });
    expect(start.cursor).toBeGreaterThanOrEqual(done.cursor);
  });

  it('lets only members listen to a conversation topic, and shows typing there', async () => {
    const [adaTab, bobTab, eveTab] = [await connect(ada), await connect(bob), await connect(eve)];
    const topic = conversationTopic(chatRef(ada, bob));
    bobTab.send({ op: 'subscribe', topic });
    await bobTab.waitFor((f) => f.type === 'subscribed' && f.topic === topic);
    eveTab.send({ op: 'subscribe', topic });
    expect(await eveTab.waitFor(isType('error'))).toMatchObject({ status: 403 });
    eveTab.send({ op: 'typing', conversation: chatRef(ada, bob) });
    expect(await eveTab.waitFor((f) => f.type === 'error' && f.status === 403, 5000, 2)).toBeTruthy();

    adaTab.send({ op: 'typing', conversation: chatRef(ada, bob) });
    expect(await bobTab.waitForEvent('typing')).toEqual({
      type: 'typing',
      conversation: chatRef(ada, bob),
      userId: ada.id,
      name: 'Ada',
    });
    expect(eveTab.events).toEqual([]);
  });

  it('sends over the socket: acknowledged after the commit, once per id', async () => {
    const [adaTab, bobTab] = [await connect(ada), await connect(bob)];
    const id = randomUUID();
    const frame = {
      op: 'send',
      conversation: chatRef(ada, bob),
      message: { id, type: 'text', content: 'via socket' },
    } as const;
    adaTab.send(frame);
    const ack = await adaTab.waitFor(isType('ack'));
    expect(ack).toMatchObject({ ref: id, created: true, message: { id, content: 'via socket' } });
    adaTab.send(frame);
    expect(await adaTab.waitFor((f) => f.type === 'ack' && !f.created)).toMatchObject({ ref: id });
    await bobTab.waitForEvent('message.created', (e) => e.message.id === id);
    await new Promise((r) => setTimeout(r, 100));
    expect(bobTab.events.filter((e) => e.type === 'message.created' && e.message.id === id)).toHaveLength(1);

    adaTab.send({
      op: 'send',
      conversation: chatRef(ada, eve),
      message: { id: randomUUID(), type: 'text', content: 'x' },
    });
    expect(await adaTab.waitFor((f) => f.type === 'error' && f.status === 403)).toMatchObject({
      message: MSG.chat.notFriends,
    });
    adaTab.send({
      op: 'send',
      conversation: chatRef(ada, bob),
      message: { id: randomUUID(), type: 'text', content: '  ' },
    });
    expect(await adaTab.waitFor((f) => f.type === 'error' && f.status === 400)).toMatchObject({
      message: MSG.chat.emptyMessage,
    });
    adaTab.ws.send('not json');
    expect(await adaTab.waitFor((f) => f.type === 'error' && f.message === MSG.api.badJson)).toBeTruthy();
  });

  it('delivers group messages to every member and stops listening when a member leaves', async () => {
    const group = (
      await t.app.inject({
        method: 'POST',
        url: '/api/groups',
        headers: { cookie: ada.cookie },
        payload: { name: 'G', memberIds: [bob.id, cy.id] },
      })
    ).json();
    const ref = { kind: 'group' as const, id: group.id as string };
    const [adaTab, bobTab, cyTab, eveTab] = [
      await connect(ada),
      await connect(bob),
      await connect(cy),
      await connect(eve),
    ];
    const sent = (await post(t.app, bob, ref, { content: 'to all' })).json().message;
    for (const tab of [adaTab, bobTab, cyTab])
      await tab.waitForEvent('message.created', (e) => e.message.id === sent.id);

    cyTab.send({ op: 'subscribe', topic: conversationTopic(ref) });
    await cyTab.waitFor(isType('subscribed'));
    await t.app.inject({
      method: 'POST',
      url: `/api/groups/${ref.id}/leave`,
      headers: { cookie: cy.cookie },
      payload: {},
    });
    await cyTab.waitForEvent('group.changed', (e) => e.change === 'left');
    await adaTab.waitForEvent('group.changed', (e) => e.change === 'members');
    const later = (await post(t.app, ada, ref, { content: 'after Cy left' })).json().message;
    await bobTab.waitForEvent('message.created', (e) => e.message.id === later.id);
    adaTab.send({ op: 'typing', conversation: ref });
    await bobTab.waitFor((f) => f.type === 'ping' || f.type === 'event', 200).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 150));
    expect(cyTab.events.some((e) => e.type === 'message.created' && e.message.id === later.id)).toBe(false);
    expect(cyTab.events.some((e) => e.type === 'typing')).toBe(false);
    expect(eveTab.events).toEqual([]);
  });
});
