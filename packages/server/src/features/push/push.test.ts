import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@studybuddy/shared/messages';
import type { PushSettingsView } from '@studybuddy/shared/push';
import type { PushPayload } from '@studybuddy/shared/push-api';
import { pushSubscriptions, pushVisibleTabs, users } from '../../db/schema.ts';
import { WsTestClient } from '../../platform/realtime/ws-test-client.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import type { ChatMessage, ConversationRef } from '@studybuddy/shared/chat';
import { chatRef, friends, post } from '../chat/chat.test-kit.ts';
import { createMessageNotices, LOOKUP_GAP_MS, type NoticeClock } from './message-notices.ts';
import type { Delivery } from './push-sender.ts';
import {
  browserKeys,
  decryptPush,
  startPushService,
  verifyVapid,
  type BrowserKeys,
  type TestPushService,
} from './push.test-kit.ts';

describe('Web Push notices', () => {
  let t: TestApp;
  let service: TestPushService;
  let baseUrl: string;
  let devices = 0;

  beforeAll(async () => {
    service = await startPushService();
    t = await createTestApp({ PUSH_SERVICE_HOSTS: '127.0.0.1', PUSH_CA_FILE: service.caFile, QUOTA_PUSH_DEVICES: '2' });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t?.close();
    await service?.close();
  });

  const inject = (user: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie: user.cookie }, ...(payload === undefined ? {} : { payload }) });

  /** Subscribes a new "browser" of this student; returns its keys and endpoint path. */
  async function subscribeDevice(user: TestUser): Promise<{ keys: BrowserKeys; path: string }> {
    const keys = browserKeys();
    const path = `/push/device-${++devices}`;
    const res = await inject(user, 'POST', '/api/push/subscriptions', {
      endpoint: `${service.origin}${path}`,
      expirationTime: null,
      keys: keys.json,
    });
    expect(res.statusCode, res.body).toBe(201);
    return { keys, path };
  }

  /** The notices that reached one endpoint, decrypted with its keys, after everything queued was sent. */
  async function noticesAt(device: { keys: BrowserKeys; path: string }): Promise<PushPayload[]> {
    await t.app.ctx.registry.push.idle();
    return service.received
      .filter((r) => r.path === device.path)
      .map((r) => JSON.parse(decryptPush(r.body, device.keys)) as PushPayload);
  }

  it('gives the VAPID public key to signed-in students only', async () => {
    const ada = await createUser(t.app, { name: 'Ada' });
    const res = await inject(ada, 'GET', '/api/push/key');
    expect(res.json()).toEqual({ publicKey: t.config.push.publicKey });
    expect(Buffer.from(t.config.push.publicKey, 'base64url')).toHaveLength(65);
    expect((await t.app.inject({ method: 'GET', url: '/api/push/key' })).statusCode).toBe(401);
  });

  it('refuses endpoints outside the push services, broken keys, and more devices than the quota', async () => {
    const ada = await createUser(t.app, { name: 'Ada' });
    const keys = browserKeys().json;
    for (const endpoint of [
      'https://169.254.169.254/latest',
      'http://127.0.0.1:9/push',
      'https://127.0.0.1.evil.test/x',
    ]) {
      const res = await inject(ada, 'POST', '/api/push/subscriptions', { endpoint, keys });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(MSG.push.invalidEndpoint);
    }
    const bad = await inject(ada, 'POST', '/api/push/subscriptions', {
      endpoint: `${service.origin}/push/bad`,
      keys: { p256dh: keys.auth, auth: keys.auth },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe(MSG.push.invalidKeys);

    await subscribeDevice(ada);
    const second = await subscribeDevice(ada);
    // The same browser subscribing again replaces its row (no extra device counted).
    const again = await inject(ada, 'POST', '/api/push/subscriptions', {
      endpoint: `${service.origin}${second.path}`,
      keys: second.keys.json,
    });
    expect(again.statusCode).toBe(201);
    const third = await inject(ada, 'POST', '/api/push/subscriptions', {
      endpoint: `${service.origin}/push/third`,
      keys,
    });
    expect(third.statusCode).toBe(429);
    expect(third.json().error.message).toBe(MSG.quota.exceeded(MSG.push.quotaDevices, '2', MSG.push.quotaWhen));
  });

  it('sends a new chat message to the friend: encrypted for their keys, signed with VAPID, opening the chat', async () => {
    const [ada, ben] = await friends(t.app, 2, ['Ada Lovelace', 'Ben']);
    const device = await subscribeDevice(ben);
    expect((await post(t.app, ada, chatRef(ada, ben), { content: 'Shall we study at 5?' })).statusCode).toBe(201);
    expect(await noticesAt(device)).toEqual([
      {
        title: 'Ada Lovelace',
        body: 'Shall we study at 5?',
        url: `/friends?friend=${ada.id}`,
        tag: `chat:${chatRef(ada, ben).id}`,
      },
    ]);
    const request = service.received.find((r) => r.path === device.path)!;
    expect(request.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(request.headers.ttl)).toBeGreaterThan(0);
    const { sub } = verifyVapid(request.headers.authorization as string, t.config.push.publicKey, service.origin);
    expect(sub).toBe(t.config.push.subject);
    // The sender's own devices hear nothing of their own message.
    const adaDevice = await subscribeDevice(ada);
    await post(t.app, ada, chatRef(ada, ben), { content: 'again' });
    expect(await noticesAt(adaDevice)).toEqual([]);
  });

  it('replaces the notice of a message deleted for everyone (same tag and topic), if it was the newest', async () => {
    const [ada, ben] = await friends(t.app, 2, ['Ada Lovelace', 'Ben']);
    const device = await subscribeDevice(ben);
    const ref = chatRef(ada, ben);
    // Each notice goes out before the next message: two messages in one look-up keep only the newest's notice.
    const older = (await post(t.app, ada, ref, { content: 'older words' })).json().message.id as string;
    await t.app.ctx.registry.push.idle();
    const newest = (await post(t.app, ada, ref, { content: 'secret plan' })).json().message.id as string;
    await t.app.ctx.registry.push.idle();
    const remove = (id: string) =>
      t.app.inject({ method: 'DELETE', url: `/api/chats/${ref.id}/messages/${id}`, headers: { cookie: ada.cookie } });
    // An older message's notice was replaced by the newest one's already: nothing to send.
    expect((await remove(older)).statusCode).toBe(200);
    expect((await noticesAt(device)).map((n) => n.body)).toEqual(['older words', 'secret plan']);
    expect((await remove(newest)).statusCode).toBe(200);
    const notices = await noticesAt(device);
    expect(notices.at(-1)).toEqual({ ...notices.at(-2), body: MSG.chat.messageDeleted });
    const topics = service.received.filter((r) => r.path === device.path).map((r) => r.headers.topic);
    expect(new Set(topics).size).toBe(1);
  });

  it('forgets a subscription the push service answers 410 (or 404) for', async () => {
    const [ada, ben] = await friends(t.app, 2, ['Ada', 'Ben']);
    const gone = await subscribeDevice(ben);
    const missing = await subscribeDevice(ben);
    service.answer.set(gone.path, 410);
    service.answer.set(missing.path, 404);
    await post(t.app, ada, chatRef(ada, ben), { content: 'hello' });
    await t.app.ctx.registry.push.idle();
    const left = await t.app.ctx.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, ben.id));
    expect(left).toEqual([]);
    const before = service.received.length;
    await post(t.app, ada, chatRef(ada, ben), { content: 'anyone?' });
    await t.app.ctx.registry.push.idle();
    expect(service.received.length).toBe(before);
  });

  it('sends nothing while one of the recipient’s tabs is visible, and again once none is', async () => {
    const [ada, ben] = await friends(t.app, 2, ['Ada', 'Ben']);
    const device = await subscribeDevice(ben);
    const tab = await WsTestClient.connect(baseUrl, ben.cookie);
    await tab.waitFor((f) => f.type === 'hello');
    const visibleRows = async () =>
      (await t.app.ctx.db.select().from(pushVisibleTabs).where(eq(pushVisibleTabs.userId, ben.id))).length;
    const until = async (want: number) => {
      for (let i = 0; i < 100 && (await visibleRows()) !== want; i++) await new Promise((r) => setTimeout(r, 20));
      expect(await visibleRows()).toBe(want);
    };
    tab.send({ op: 'visibility', visible: true });
    await until(1);
    await post(t.app, ada, chatRef(ada, ben), { content: 'you are looking at this' });
    expect(await noticesAt(device)).toEqual([]);

    tab.send({ op: 'visibility', visible: false });
    await until(0);
    await post(t.app, ada, chatRef(ada, ben), { content: 'tab hidden' });
    expect((await noticesAt(device)).map((n) => n.body)).toEqual(['tab hidden']);

    // A visible tab that closes counts no more.
    tab.send({ op: 'visibility', visible: true });
    await until(1);
    tab.ws.close();
    await until(0);
    await post(t.app, ada, chatRef(ada, ben), { content: 'tab closed' });
    expect((await noticesAt(device)).map((n) => n.body)).toEqual(['tab hidden', 'tab closed']);
  });

  it('removes the browser’s subscription on log-out: nothing is sent to it afterwards', async () => {
    const [ada, ben] = await friends(t.app, 2, ['Ada', 'Ben']);
    const device = await subscribeDevice(ben);
    expect((await inject(ben, 'POST', '/api/auth/logout')).statusCode).toBe(200);
    expect(await t.app.ctx.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, ben.id))).toEqual([]);
    await post(t.app, ada, chatRef(ada, ben), { content: 'after log-out' });
    expect(await noticesAt(device)).toEqual([]);
  });

  it('removes every subscription with the account', async () => {
    const ben = await createUser(t.app, { name: 'Ben' });
    await subscribeDevice(ben);
    await t.app.ctx.db.delete(users).where(eq(users.id, ben.id));
    expect(await t.app.ctx.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, ben.id))).toEqual([]);
  });

  it('sends friend requests and acceptances (opening the right page), unless the student turned them off', async () => {
    const ada = await createUser(t.app, { name: 'Ada' });
    const ben = await createUser(t.app, { name: 'Ben' });
    const cat = await createUser(t.app, { name: 'Cat' });
    const benDevice = await subscribeDevice(ben);
    const adaDevice = await subscribeDevice(ada);
    const sent = await inject(ada, 'POST', '/api/social/requests', { toUserId: ben.id });
    expect(sent.statusCode).toBe(201);
    const requestId = sent.json().requestId as string;
    expect(await noticesAt(benDevice)).toEqual([
      {
        title: MSG.push.friendRequestTitle,
        body: MSG.push.friendRequestBody('Ada'),
        url: '/notifications',
        tag: `request:${requestId}`,
      },
    ]);
    expect((await inject(ben, 'POST', `/api/social/requests/${requestId}/accept`)).statusCode).toBe(200);
    expect(await noticesAt(adaDevice)).toEqual([
      {
        title: MSG.push.acceptedTitle,
        body: MSG.push.acceptedBody('Ben'),
        url: `/friends?friend=${ben.id}`,
        tag: `accepted:${ben.id}`,
      },
    ]);

    const off = await inject(ben, 'PUT', '/api/push/settings', { messages: true, friendRequests: false });
    expect(off.json()).toEqual({ messages: true, friendRequests: false, mutedGroups: [] } satisfies PushSettingsView);
    expect((await inject(ben, 'GET', '/api/push/settings')).json()).toMatchObject({ friendRequests: false });
    await inject(cat, 'POST', '/api/social/requests', { toUserId: ben.id });
    expect(await noticesAt(benDevice)).toHaveLength(1);

    await inject(ben, 'PUT', '/api/push/settings', { messages: false, friendRequests: true });
    await post(t.app, ada, chatRef(ada, ben), { content: 'muted by the switch' });
    expect(await noticesAt(benDevice)).toHaveLength(1);
  });

  it('looks up the notices of a busy moment together, each to its own recipients, mutes per group', async () => {
    const [ada, ben, cat] = await friends(t.app, 3, ['Ada', 'Ben', 'Cat']);
    const created = await inject(ada, 'POST', '/api/groups', { name: 'Optics', memberIds: [ben.id, cat.id] });
    const group = { kind: 'group', id: created.json().id as string } as const;
    await subscribeDevice(ben);
    await subscribeDevice(cat);
    await inject(ben, 'PUT', `/api/push/groups/${group.id}/mute`, { muted: true });
    const sent = async (from: TestUser, ref: ConversationRef, content: string) =>
      (await post(t.app, from, ref, { content })).json<{ message: ChatMessage }>().message;
    const batch = [
      { message: await sent(ada, chatRef(ada, ben), 'to Ben'), recipients: [ada.id, ben.id] },
      { message: await sent(ada, group, 'to the group'), recipients: [ada.id, ben.id, cat.id] },
      { message: await sent(cat, chatRef(cat, ben), 'Cat to Ben'), recipients: [cat.id, ben.id] },
    ].map((n) => ({ ...n, body: n.message.content }));

    const lookUps: Promise<Delivery[]>[] = [];
    // Time moves only when the test says (a busy machine changes nothing).
    let now = 1_000_000;
    const timers: { fn: () => void; at: number }[] = [];
    const clock: NoticeClock = {
      now: () => now,
      after(fn, ms) {
        const timer = { fn, at: now + ms };
        timers.push(timer);
        return { cancel: () => timers.splice(timers.indexOf(timer), 1) };
      },
    };
    const pass = (ms: number) => {
      now += ms;
      for (const timer of timers.filter((x) => x.at <= now)) {
        timers.splice(timers.indexOf(timer), 1);
        timer.fn();
      }
    };
    const notices = createMessageNotices({
      db: t.app.ctx.db,
      registry: t.app.ctx.registry,
      schedule: (find) => void lookUps.push(find()),
      clock,
    });
    notices.add(batch.slice(0, 1));
    pass(0);
    await notices.handedOver();
    expect(lookUps).toHaveLength(1);
    // Notices added until the next look-up may start (LOOKUP_GAP_MS after the last) go in it together.
    pass(100);
    notices.add(batch.slice(1, 2));
    notices.add(batch.slice(2));
    const handedOver = notices.handedOver();
    pass(LOOKUP_GAP_MS - 101);
    expect(lookUps).toHaveLength(1);
    pass(1);
    await handedOver;
    expect(lookUps).toHaveLength(2);
    const deliveries = (await Promise.all(lookUps)).flat();
    const to = (user: TestUser) =>
      deliveries
        .filter((d) => d.subscription.userId === user.id)
        .map((d) => d.payload.body)
        .sort();
    expect(to(ben)).toEqual(['Cat to Ben', 'to Ben']);
    expect(to(cat)).toEqual(['to the group']);
    expect(to(ada)).toEqual([]);
  });

  it('sends group messages to members, not to one who muted the group, nor to one who left', async () => {
    const [ada, ben, cat] = await friends(t.app, 3, ['Ada', 'Ben', 'Cat']);
    const created = await inject(ada, 'POST', '/api/groups', { name: 'Algebra', memberIds: [ben.id, cat.id] });
    expect(created.statusCode, created.body).toBe(201);
    const groupId = created.json().id as string;
    const group = { kind: 'group', id: groupId } as const;
    const benDevice = await subscribeDevice(ben);
    const catDevice = await subscribeDevice(cat);

    await post(t.app, ada, group, { content: 'first' });
    const expected = {
      title: MSG.push.groupMessageTitle('Algebra', 'Ada'),
      body: 'first',
      url: `/groups?group=${groupId}`,
      tag: `group:${groupId}`,
    };
    expect(await noticesAt(benDevice)).toEqual([expected]);
    expect(await noticesAt(catDevice)).toEqual([expected]);

    const muted = await inject(ben, 'PUT', `/api/push/groups/${groupId}/mute`, { muted: true });
    expect(muted.json()).toMatchObject({ mutedGroups: [groupId] });
    expect((await inject(cat, 'POST', `/api/groups/${groupId}/leave`)).statusCode).toBeLessThan(300);
    await post(t.app, ada, group, { content: 'second' });
    expect(await noticesAt(benDevice)).toHaveLength(1);
    expect(await noticesAt(catDevice)).toHaveLength(1);

    await inject(ben, 'PUT', `/api/push/groups/${groupId}/mute`, { muted: false });
    await post(t.app, ada, group, { content: 'third' });
    expect((await noticesAt(benDevice)).map((n) => n.body)).toEqual(['first', 'third']);

    // Only members may mute a group.
    const outsider = await createUser(t.app, { name: 'Dee' });
    expect((await inject(outsider, 'PUT', `/api/push/groups/${groupId}/mute`, { muted: true })).statusCode).toBe(403);
  });
});
