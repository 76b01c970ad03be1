import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, or } from 'drizzle-orm';
import type { BlockedList } from '@studybuddy/shared/blocks';
import type { ConversationRef } from '@studybuddy/shared/chat';
import type { GroupList } from '@studybuddy/shared/groups';
import { MSG } from '@studybuddy/shared/messages';
import type { PushPayload } from '@studybuddy/shared/push-api';
import { conversationTopic, type RealtimeEvent, type ServerFrame } from '@studybuddy/shared/realtime';
import type { SearchResults } from '@studybuddy/shared/search';
import type {
  FriendsList,
  MatchPage,
  NotificationBadge,
  NotificationsList,
  SearchResult,
} from '@studybuddy/shared/social';
import { connections, friendRequests } from '../../db/schema.ts';
import type { SeedUser } from '../../demo/seed-users.ts';
import type { MailMessage } from '../../platform/mail.ts';
import { WsTestClient } from '../../platform/realtime/ws-test-client.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { befriend, chatRef, get, history, markRead, pngBytes, post, upload } from '../chat/chat.test-kit.ts';
import { browserKeys, decryptPush, startPushService, type TestPushService } from '../push/push.test-kit.ts';

/**
 * Issue 24 point 1: a blocked pair never meet. One test per place two students meet (the block matrix), each in
 * both directions where a direction exists: the blocker and the blocked student.
 */

let t: TestApp;
let base: string;
let service: TestPushService;
const mails: MailMessage[] = [];
/** Who each new message was announced to (what push notices go by). */
const announced: { messageId: string; recipients: string[] }[] = [];

beforeAll(async () => {
  service = await startPushService();
  t = await createTestApp(
    { PUSH_SERVICE_HOSTS: '127.0.0.1', PUSH_CA_FILE: service.caFile, RATE_LIMITS: 'false' },
    { mailer: { send: async (m) => void mails.push(m) } },
  );
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  t.app.ctx.registry.messageListeners.push((written) => {
    for (const w of written) announced.push({ messageId: w.message.id, recipients: w.recipients });
  });
});
afterAll(async () => {
  await t?.close();
  await service?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (user: TestUser | null, method: Method, url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: user ? { cookie: user.cookie } : {},
    ...(payload === undefined ? {} : { payload }),
  });
const block = (by: TestUser, whom: string) => call(by, 'POST', '/api/social/blocks', { userId: whom });
const unblock = (by: TestUser, whom: string) => call(by, 'DELETE', `/api/social/blocks/${whom}`);
const sendRequest = (from: TestUser, to: TestUser) => call(from, 'POST', '/api/social/requests', { toUserId: to.id });
const notFoundBody = { error: { code: 'not_found', message: MSG.api.notFound } };

/** Two students of one college who share a course no one else takes (so each is the other's first suggestion). */
async function pair(names: [string, string], extra: Partial<SeedUser> = {}): Promise<[TestUser, TestUser]> {
  const course = `Course ${randomUUID().slice(0, 8)}`;
  const a = await createUser(t.app, { name: names[0], courses: [course], ...extra });
  const b = await createUser(t.app, { name: names[1], courses: [course], ...extra });
  return [a, b];
}

async function blocked(by: TestUser, whom: TestUser) {
  const res = await block(by, whom.id);
  expect(res.statusCode, res.body).toBe(201);
}

const suggests = async (viewer: TestUser, other: TestUser) =>
  (await get(t.app, viewer, '/api/social/matches?limit=50'))
    .json<MatchPage>()
    .candidates.some((c) => c.uid === other.id);
const finds = async (viewer: TestUser, q: string, other: TestUser) =>
  (await get(t.app, viewer, `/api/social/search?q=${encodeURIComponent(q)}&limit=20`))
    .json<SearchResult>()
    .users.some((c) => c.uid === other.id);
const searchBox = async (viewer: TestUser, q: string) => {
  const res = await get(t.app, viewer, `/api/search?q=${encodeURIComponent(q)}&limit=20`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SearchResults>();
};
const friendIdsOf = async (user: TestUser) =>
  (await get(t.app, user, '/api/social/friends')).json<FriendsList>().friends.map((f) => f.uid);
const requestsBetween = (a: TestUser, b: TestUser) =>
  t.app.ctx.db
    .select()
    .from(friendRequests)
    .where(
      or(
        and(eq(friendRequests.fromUserId, a.id), eq(friendRequests.toUserId, b.id)),
        and(eq(friendRequests.fromUserId, b.id), eq(friendRequests.toUserId, a.id)),
      ),
    );

async function groupOf(creator: TestUser, members: TestUser[], name = 'Study group'): Promise<ConversationRef> {
  const res = await call(creator, 'POST', '/api/groups', { name, memberIds: members.map((m) => m.id) });
  expect(res.statusCode, res.body).toBe(201);
  return { kind: 'group', id: res.json<{ id: string }>().id };
}
const unreadIn = async (user: TestUser, ref: ConversationRef, kind: 'group' | 'hot' = 'group') =>
  (await get(t.app, user, `/api/groups?kind=${kind}`)).json<GroupList>().groups.find((g) => g.id === ref.id)?.unread;
async function say(user: TestUser, ref: ConversationRef, content: string): Promise<string> {
  const res = await post(t.app, user, ref, { content });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ message: { id: string } }>().message.id;
}

/** A socket of the student, after its hello. */
async function socketOf(user: TestUser): Promise<WsTestClient> {
  const ws = await WsTestClient.connect(base, user.cookie);
  await ws.waitFor((f) => f.type === 'hello');
  return ws;
}
async function subscribe(ws: WsTestClient, ref: ConversationRef): Promise<ServerFrame> {
  const topic = conversationTopic(ref);
  const from = ws.frames.length;
  ws.send({ op: 'subscribe', topic });
  return ws.waitFor((f) => (f.type === 'subscribed' && f.topic === topic) || f.type === 'error', 5000, from);
}
/** Everything published to the student before this call has reached the socket once it returns. */
async function settled(ws: WsTestClient, user: TestUser): Promise<void> {
  const marker = `marker-${randomUUID()}`;
  t.app.ctx.realtime.toUsers([user.id], { type: 'profile.changed', userId: marker });
  await ws.waitForEvent('profile.changed', (e) => e.userId === marker);
}
/** The socket's answer to one op: the first error or ack frame after it. */
async function answerTo(ws: WsTestClient, frame: Record<string, unknown>): Promise<ServerFrame> {
  const from = ws.frames.length;
  ws.send(frame);
  return ws.waitFor((f) => f.type === 'error' || f.type === 'ack', 5000, from);
}

describe('block and unblock', () => {
  it('refuses blocking oneself (400), and answers 404 without a hint for unknown ids, another college and unblocking who is not blocked', async () => {
    const ada = await createUser(t.app, { name: 'Ada Self' });
    const wes = await createUser(t.app, { name: 'Wes Other', email: `wes${randomUUID().slice(0, 8)}@wisc.edu` });
    const self = await block(ada, ada.id);
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({ error: { code: 'self_block', message: MSG.block.notYourself, field: 'userId' } });
    for (const id of [randomUUID(), 'no-such-student', wes.id]) {
      const res = await block(ada, id);
      expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 404, body: notFoundBody });
    }
    const res = await unblock(ada, wes.id);
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 404, body: notFoundBody });
    expect((await block(ada, '')).statusCode).toBe(400);
    expect((await call(null, 'POST', '/api/social/blocks', { userId: wes.id })).statusCode).toBe(401);
    expect((await call(null, 'GET', '/api/social/blocks')).statusCode).toBe(401);
    expect((await get(t.app, ada, '/api/social/blocks')).json()).toEqual({ blocked: [] });
  });

  it('lists the blocked students newest first; blocking twice is one block; unblocking takes them off the list', async () => {
    const ada = await createUser(t.app, { name: 'Ada Lister' });
    const ben = await createUser(t.app, { name: 'Ben Blocked' });
    const cy = await createUser(t.app, { name: '' });
    await blocked(ada, ben);
    await blocked(ada, cy);
    const again = await block(ada, ben.id);
    expect({ status: again.statusCode, body: again.json() }).toEqual({ status: 200, body: { blocked: true } });
    const list = (await get(t.app, ada, '/api/social/blocks')).json<BlockedList>();
    expect(list.blocked.map((b) => [b.uid, b.name])).toEqual([
      [cy.id, MSG.chat.anonymous],
      [ben.id, 'Ben Blocked'],
    ]);
    expect(list.blocked[1]).toEqual({
      uid: ben.id,
      name: 'Ben Blocked',
      profilePicture: expect.any(String),
      blockedAt: expect.any(String),
    });
    // The blocked student's own list is theirs only.
    expect((await get(t.app, ben, '/api/social/blocks')).json()).toEqual({ blocked: [] });
    const res = await unblock(ada, ben.id);
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 200, body: { blocked: false } });
    expect((await get(t.app, ada, '/api/social/blocks')).json<BlockedList>().blocked.map((b) => b.uid)).toEqual([
      cy.id,
    ]);
  });
});

describe('the block matrix: every place two students meet', () => {
  it('match suggestions: neither is suggested to the other, either way, until unblocked', async () => {
    const [ada, ben] = await pair(['Ada Match', 'Ben Match']);
    expect([await suggests(ada, ben), await suggests(ben, ada)]).toEqual([true, true]);
    await blocked(ada, ben);
    expect([await suggests(ada, ben), await suggests(ben, ada)]).toEqual([false, false]);
    // Blocked both ways, one unblock is not enough.
    await blocked(ben, ada);
    expect((await unblock(ada, ben.id)).statusCode).toBe(200);
    expect([await suggests(ada, ben), await suggests(ben, ada)]).toEqual([false, false]);
    expect((await unblock(ben, ada.id)).statusCode).toBe(200);
    expect([await suggests(ada, ben), await suggests(ben, ada)]).toEqual([true, true]);
  });

  it('user search: neither finds the other by name, either way', async () => {
    const [ada, ben] = await pair(['Adaline Searcher', 'Benedict Searcher']);
    expect([await finds(ada, 'benedict', ben), await finds(ben, 'adaline', ada)]).toEqual([true, true]);
    await blocked(ben, ada);
    expect([await finds(ada, 'benedict', ben), await finds(ben, 'adaline', ada)]).toEqual([false, false]);
    await unblock(ben, ada.id);
    expect([await finds(ada, 'benedict', ben), await finds(ben, 'adaline', ada)]).toEqual([true, true]);
  });

  it("the search box: neither finds the other nor the other's group messages, either way; others' still show", async () => {
    const [ada, ben] = await pair(['Adelheid Boxer', 'Bertram Boxer']);
    const cy = await createUser(t.app, { name: 'Cyprian Boxer' });
    await befriend(t.app, cy, ada);
    await befriend(t.app, cy, ben);
    const group = await groupOf(cy, [ada, ben]);
    await say(ada, group, 'zanzibar notes from adelheid');
    await say(ben, group, 'zanzibar notes from bertram');
    await say(cy, group, 'zanzibar notes from cyprian');
    const peopleFound = async (viewer: TestUser) => (await searchBox(viewer, 'boxer')).people.map((p) => p.uid);
    expect(await peopleFound(ada)).toContain(ben.id);
    expect(await peopleFound(ben)).toContain(ada.id);
    await blocked(ada, ben);
    for (const [viewer, other, otherWord] of [
      [ada, ben, 'bertram'],
      [ben, ada, 'adelheid'],
    ] as const) {
      const people = await peopleFound(viewer);
      expect(people).not.toContain(other.id);
      expect(people).toContain(cy.id);
      const messages = (await searchBox(viewer, 'zanzibar')).messages.map((m) => m.snippet.text);
      expect(messages.some((m) => m.includes(otherWord))).toBe(false);
      expect(messages.some((m) => m.includes('cyprian'))).toBe(true);
    }
  });

  it('friend requests: a pending request is withdrawn whichever way it went, and a friendship ends', async () => {
    const [ada, ben] = await pair(['Ada Pending', 'Ben Pending']);
    expect((await sendRequest(ben, ada)).statusCode).toBe(201);
    expect((await sendRequest(ada, ben)).statusCode).toBe(200); // theirs accepted: friends
    expect(await friendIdsOf(ada)).toEqual([ben.id]);
    const [cy, dee] = await pair(['Cy Pending', 'Dee Pending']);
    const sent = (await sendRequest(cy, dee)).json<{ requestId: string }>().requestId;

    await blocked(ada, ben);
    expect([await friendIdsOf(ada), await friendIdsOf(ben)]).toEqual([[], []]);
    expect(await t.app.ctx.db.select().from(connections).where(eq(connections.userId, ben.id))).toEqual([]);
    // The addressee blocks: the request they had received is gone; accepting it finds nothing.
    await blocked(dee, cy);
    expect((await requestsBetween(cy, dee)).filter((r) => r.status === 'pending')).toEqual([]);
    const accept = await call(dee, 'POST', `/api/social/requests/${sent}/accept`);
    expect(accept.statusCode).toBe(404);
    expect((await call(cy, 'DELETE', `/api/social/requests/${sent}`)).statusCode).toBe(404);
    // And the sender's way round: the one who sent blocks.
    const [eve, fay] = await pair(['Eve Pending', 'Fay Pending']);
    await sendRequest(eve, fay);
    await blocked(eve, fay);
    expect((await requestsBetween(eve, fay)).filter((r) => r.status === 'pending')).toEqual([]);
    expect((await get(t.app, fay, '/api/social/notifications')).json<NotificationsList>().requests).toEqual([]);
  });

  it('friend requests: the blocked student gets the ordinary answer and nothing reaches the blocker; the blocker is told to unblock first', async () => {
    const [ada, ben] = await pair(['Ada Neutral', 'Ben Neutral']);
    await blocked(ada, ben);
    const ordinary = await sendRequest(ben, ada);
    expect(ordinary.statusCode).toBe(201);
    expect(ordinary.json()).toEqual({ outcome: 'sent', requestId: expect.any(String) });
    expect(JSON.stringify(ordinary.json())).not.toMatch(/block/i);
    expect(await requestsBetween(ada, ben)).toEqual([]);
    // Unsending it finds nothing, as for a request already answered.
    const unsend = await call(
      ben,
      'DELETE',
      `/api/social/requests/${ordinary.json<{ requestId: string }>().requestId}`,
    );
    expect(unsend.statusCode).toBe(404);
    expect(unsend.json().error.message).toBe(MSG.match.requestNotFound);

    const mine = await sendRequest(ada, ben);
    expect(mine.statusCode).toBe(409);
    expect(mine.json()).toEqual({ error: { code: 'you_blocked', message: MSG.block.youBlocked } });
    expect(await requestsBetween(ada, ben)).toEqual([]);
    // After unblocking, requests go as usual.
    await unblock(ada, ben.id);
    expect((await sendRequest(ben, ada)).statusCode).toBe(201);
    expect((await requestsBetween(ada, ben)).map((r) => r.status)).toEqual(['pending']);
  });

  it('one-to-one chat over HTTP: neither writes or uploads; the blocker keeps reading the history and its files, the blocked student cannot', async () => {
    const [ada, ben] = await pair(['Ada Chat', 'Ben Chat']);
    await befriend(t.app, ada, ben);
    const ref = chatRef(ada, ben);
    await say(ben, ref, 'something unkind');
    const image = await upload(t.app, ben, ref, 'image', await pngBytes(), 'image/png');
    expect(image.statusCode, image.body).toBe(201);
    const url = image.json<{ url: string }>().url;
    expect((await post(t.app, ben, ref, { type: 'image', content: url })).statusCode).toBe(201);

    await blocked(ada, ben);
    for (const who of [ada, ben]) {
      const sent = await post(t.app, who, ref, { content: 'still there?' });
      expect(sent.statusCode).toBe(403);
      expect(sent.json().error.message).toBe(MSG.chat.notFriends);
      expect((await upload(t.app, who, ref, 'image', await pngBytes(), 'image/png')).statusCode).toBe(403);
    }
    // The blocker: read-only history (it may be needed for a report), the chat's details and files.
    const kept = await history(t.app, ada, ref);
    expect(kept.statusCode).toBe(200);
    expect(kept.json<{ messages: { content: string }[] }>().messages.map((m) => m.content)).toEqual([
      'something unkind',
      url,
    ]);
    expect((await get(t.app, ada, `/api/chats/${ref.id}`)).json()).toMatchObject({ friend: { id: ben.id } });
    expect((await markRead(t.app, ada, ref)).statusCode).toBe(200);
    expect((await get(t.app, ada, url)).statusCode).toBe(200);
    // Not among the blocker's chats or unread counts (those are friends').
    expect((await get(t.app, ada, '/api/chats')).json<{ chats: unknown[] }>().chats).toEqual([]);
    // The blocked student: refused everywhere, with the text of a closed chat (nothing says blocked).
    const refused = await history(t.app, ben, ref);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe(MSG.chat.notFriends);
    expect((await get(t.app, ben, `/api/chats/${ref.id}`)).statusCode).toBe(403);
    expect((await get(t.app, ben, url)).statusCode).toBe(403);
    // Unblocked, they are strangers: the history closes to the blocker too, as after unfriending.
    await unblock(ada, ben.id);
    expect((await history(t.app, ada, ref)).statusCode).toBe(403);
  });

  it('one-to-one chat over the socket: both are unsubscribed at once, neither can subscribe again or send', async () => {
    const [ada, ben] = await pair(['Ada Socket', 'Ben Socket']);
    await befriend(t.app, ada, ben);
    const ref = chatRef(ada, ben);
    const [adaTab, benTab] = [await socketOf(ada), await socketOf(ben)];
    for (const tab of [adaTab, benTab]) expect(await subscribe(tab, ref)).toMatchObject({ type: 'subscribed' });

    await blocked(ben, ada);
    // Typing that was on its way when the block came: nobody hears it.
    const typing: RealtimeEvent = { type: 'typing', conversation: ref, userId: ben.id, name: 'Ben Socket' };
    t.app.ctx.realtime.publish([conversationTopic(ref)], typing);
    for (const [tab, user] of [
      [adaTab, ada],
      [benTab, ben],
    ] as const) {
      await settled(tab, user);
      expect(tab.events.filter((e) => e.type === 'typing')).toEqual([]);
      expect(await subscribe(tab, ref)).toMatchObject({ type: 'error', status: 403 });
      const answer = await answerTo(tab, {
        op: 'send',
        conversation: ref,
        message: { id: randomUUID(), type: 'text', content: 'over the socket' },
      });
      expect(answer).toMatchObject({ type: 'error', status: 403, message: MSG.chat.notFriends });
    }
    expect((await history(t.app, ben, ref)).json<{ messages: unknown[] }>().messages).toEqual([]);
    adaTab.ws.close();
    benTab.ws.close();
  });

  it('typing in their chat is refused either way and reaches no one', async () => {
    const [ada, ben] = await pair(['Ada Typing', 'Ben Typing']);
    await befriend(t.app, ada, ben);
    const ref = chatRef(ada, ben);
    const [adaTab, benTab] = [await socketOf(ada), await socketOf(ben)];
    await blocked(ada, ben);
    for (const [tab, user] of [
      [adaTab, ada],
      [benTab, ben],
    ] as const) {
      expect(await answerTo(tab, { op: 'typing', conversation: ref })).toMatchObject({ type: 'error', status: 403 });
      await settled(tab, user);
    }
    for (const tab of [adaTab, benTab]) expect(tab.events.filter((e) => e.type === 'typing')).toEqual([]);
    adaTab.ws.close();
    benTab.ws.close();
  });

  it("a group they share: messages still arrive both ways (the blocker's app folds them), the blocker counts none of the blocked student's as unread; neither adds the other to a group", async () => {
    const [ada, ben] = await pair(['Ada Group', 'Ben Group']);
    const cy = await createUser(t.app, { name: 'Cy Group' });
    await befriend(t.app, cy, ada);
    await befriend(t.app, cy, ben);
    await befriend(t.app, ada, ben);
    const group = await groupOf(cy, [ada, ben]);
    await blocked(ada, ben);

    const adaTab = await socketOf(ada);
    expect(await subscribe(adaTab, group)).toMatchObject({ type: 'subscribed' });
    const fromBen = await say(ben, group, 'from the blocked student');
    await adaTab.waitForEvent('message.created', (e) => e.message.id === fromBen);
    expect(await unreadIn(ada, group)).toBe(0);
    await say(cy, group, 'from someone else');
    expect(await unreadIn(ada, group)).toBe(1);
    expect(
      (await history(t.app, ada, group)).json<{ messages: { id: string }[] }>().messages.map((m) => m.id),
    ).toContain(fromBen);
    // Marking read answers what is left, counted the same way.
    await say(ben, group, 'another from the blocked student');
    expect((await markRead(t.app, ada, group)).json()).toMatchObject({ unread: 0 });
    // The blocked student's side is unchanged: the blocker's messages count as usual.
    await say(ada, group, 'from the blocker');
    expect(await unreadIn(ben, group)).toBe(2);
    // Neither may add the other to a group: they are no longer friends.
    for (const [who, other] of [
      [ada, ben],
      [ben, ada],
    ] as const) {
      const made = await call(who, 'POST', '/api/groups', { name: 'Not together', memberIds: [other.id] });
      expect(made.statusCode).toBe(403);
      expect(made.json().error.message).toBe(MSG.groups.onlyFriends);
      const added = await call(who, 'POST', `/api/groups/${group.id}/members`, { memberIds: [other.id] });
      expect(added.statusCode).toBe(403);
    }
    adaTab.ws.close();
  });

  it("a hot group they share: the blocked student's messages are nobody's unread news to the blocker, and are announced to everyone but the blocker", async () => {
    const courseId = `77${Math.floor(Math.random() * 1e6)}`;
    const coursework = [{ courseId, courseName: `Course ${courseId}`, items: [{ id: '5', name: 'Homework 5' }] }];
    const [ada, ben] = await pair(['Ada Hot', 'Ben Hot'], { coursework });
    const cy = await createUser(t.app, { name: 'Cy Hot', coursework });
    for (const who of [ada, ben, cy]) {
      const res = await call(who, 'POST', '/api/hot-groups', { courseId, itemId: '5' });
      expect(res.statusCode, res.body).toBeLessThan(300);
    }
    const hot: ConversationRef = { kind: 'group', id: `${courseId}_5` };
    await blocked(ben, ada);
    const fromAda = await say(ada, hot, 'hot take from the blocked student');
    const fromCy = await say(cy, hot, 'hot take from cy');
    expect(await unreadIn(ben, hot, 'hot')).toBe(1);
    expect(await unreadIn(ada, hot, 'hot')).toBe(1);
    expect(announced.find((a) => a.messageId === fromAda)?.recipients.sort()).toEqual([ada.id, cy.id].sort());
    expect(announced.find((a) => a.messageId === fromCy)?.recipients.sort()).toEqual([ada.id, ben.id, cy.id].sort());
    // The blocker still reads it all.
    const messages = (await history(t.app, ben, hot)).json<{ messages: { id: string }[] }>().messages;
    expect(messages.map((m) => m.id)).toEqual([fromAda, fromCy]);
  });

  it("notifications: a withdrawn or unseen request leaves the blocker's list and badge, with no live event or e-mail", async () => {
    const [ada, ben] = await pair(['Ada Notified', 'Ben Notified']);
    const adaEmail = ada.email;
    expect((await sendRequest(ben, ada)).statusCode).toBe(201);
    await expect.poll(() => mails.filter((m) => m.to === adaEmail).length).toBe(1);
    expect((await get(t.app, ada, '/api/social/notifications/badge')).json()).toEqual({ pending: 1, unviewed: true });

    const adaTab = await socketOf(ada);
    const benTab = await socketOf(ben);
    await blocked(ada, ben);
    await adaTab.waitForEvent('friendRequest.changed');
    // The withdrawn request was the blocked student's to see: their tab hears that it is gone.
    await benTab.waitForEvent('friendRequest.changed');
    expect((await get(t.app, ada, '/api/social/notifications')).json<NotificationsList>().requests).toEqual([]);
    expect((await get(t.app, ada, '/api/social/notifications/badge')).json<NotificationBadge>()).toEqual({
      pending: 0,
      unviewed: false,
    });

    const from = adaTab.frames.length;
    await sendRequest(ben, ada);
    await settled(adaTab, ada);
    expect(
      adaTab.frames.slice(from).filter((f) => f.type === 'event' && f.event.type === 'friendRequest.changed'),
    ).toEqual([]);
    expect((await get(t.app, ada, '/api/social/notifications')).json<NotificationsList>().requests).toEqual([]);
    expect((await get(t.app, ada, '/api/social/notifications/badge')).json()).toEqual({ pending: 0, unviewed: false });
    // A stranger blocking changes nothing the blocked student could see: their tabs hear nothing.
    const [cy, dee] = await pair(['Cy Notified', 'Dee Notified']);
    const deeTab = await socketOf(dee);
    await blocked(cy, dee);
    await settled(deeTab, dee);
    expect(deeTab.events.filter((e) => e.type === 'friendRequest.changed')).toEqual([]);
    // No second e-mail reached the blocker.
    await new Promise((r) => setTimeout(r, 100));
    expect(mails.filter((m) => m.to === adaEmail)).toHaveLength(1);
    for (const tab of [adaTab, benTab, deeTab]) tab.ws.close();
  });

  it("push: no notice of the blocked student's group messages or requests reaches the blocker; the blocked student still hears the blocker's", async () => {
    const [ada, ben] = await pair(['Ada Push', 'Ben Push']);
    const cy = await createUser(t.app, { name: 'Cy Push' });
    await befriend(t.app, cy, ada);
    await befriend(t.app, cy, ben);
    const group = await groupOf(cy, [ada, ben], 'Pushers');
    const device = async (user: TestUser) => {
      const keys = browserKeys();
      const path = `/push/${randomUUID()}`;
      const res = await call(user, 'POST', '/api/push/subscriptions', {
        endpoint: `${service.origin}${path}`,
        expirationTime: null,
        keys: keys.json,
      });
      expect(res.statusCode, res.body).toBe(201);
      return async () => {
        await t.app.ctx.registry.push.idle();
        return service.received
          .filter((r) => r.path === path)
          .map((r) => (JSON.parse(decryptPush(r.body, keys)) as PushPayload).body);
      };
    };
    const [adaNotices, benNotices, cyNotices] = [await device(ada), await device(ben), await device(cy)];
    await blocked(ada, ben);
    await say(ben, group, 'from the blocked student');
    await sendRequest(ben, ada);
    expect(await cyNotices()).toEqual(['from the blocked student']);
    expect(await adaNotices()).toEqual([]);
    await say(ada, group, 'from the blocker');
    expect(await benNotices()).toEqual(['from the blocker']);
    await say(cy, group, 'from a friend');
    expect(await adaNotices()).toEqual(['from a friend']);
  });

  it('profile view: refused either way (403, the text any stranger gets), even when they were friends', async () => {
    const [ada, ben] = await pair(['Ada Profile', 'Ben Profile']);
    await befriend(t.app, ada, ben);
    expect((await get(t.app, ada, `/api/social/profiles/${ben.id}`)).statusCode).toBe(200);
    await blocked(ben, ada);
    for (const [viewer, other] of [
      [ada, ben],
      [ben, ada],
    ] as const) {
      const res = await get(t.app, viewer, `/api/social/profiles/${other.id}`);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toBe(MSG.friends.profileUnavailable);
    }
  });
});
