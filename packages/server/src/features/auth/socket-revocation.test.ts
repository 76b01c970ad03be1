import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { conversationTopic, type RealtimeEvent } from '@studybuddy/shared/realtime';
import { WsTestClient } from '../../platform/realtime/ws-test-client.ts';
import { oneOrTwoInstances, type OneOrTwoInstances } from '../../test/second-instance.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { chatRef, friends } from '../chat/chat.test-kit.ts';
import { captureMail, post, type MailCapture } from './auth-test-helpers.ts';
import { disableAccount } from './account-disable.service.ts';
import { WS_CLOSE_SIGNED_OUT } from '@studybuddy/shared/realtime';
import { createSession, SESSION_COOKIE } from './session.ts';

/**
 * Issue 23 point 7: log-out, password reset, disable and unfriend reach the sockets at once (the session re-check
 * would take up to a minute), on every instance. With TEST_DATABASE_URL the sockets are on a second instance
 * sharing the PostgreSQL database (the bus is LISTEN/NOTIFY); on PGlite on the one instance (the in-memory bus).
 */
describe('ending a session or a friendship reaches the sockets at once', () => {
  let one: TestApp;
  let instances: OneOrTwoInstances | undefined;
  let mail: MailCapture;
  /** Where the sockets connect: the second instance when there is one. */
  let socketUrl: string;
  const open: WsTestClient[] = [];

  beforeAll(async () => {
    mail = captureMail();
    one = await createTestApp({}, { mailer: mail });
    instances = await oneOrTwoInstances(one);
    socketUrl = instances.urls[1];
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await (instances?.close() ?? one?.close());
  });

  /** A socket of this cookie, with how it closed (or 'open' after `ms`). */
  async function socket(cookie: string) {
    const client = await WsTestClient.connect(socketUrl, cookie);
    open.push(client);
    await client.waitFor((f) => f.type === 'hello');
    const closed = new Promise<number>((resolve) => client.ws.once('close', (code) => resolve(code)));
    const closeCode = (ms = 3000) =>
      Promise.race([closed, new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), ms))]);
    return { client, closeCode };
  }

  /** A second session of the same student (another browser). */
  const otherBrowser = async (user: TestUser) =>
    `${SESSION_COOKIE}=${(await createSession(one.app.ctx.db, user.id)).token}`;

  /** Proves a socket is still open and live: an event sent to its user after everything else reaches it. */
  async function stillLive(client: WsTestClient, userId: string) {
    const event: RealtimeEvent = { type: 'friendRequest.changed', requestId: `probe-${Date.now()}` };
    one.app.ctx.realtime.toUsers([userId], event);
    expect(await client.waitForEvent('friendRequest.changed', (e) => e.requestId === event.requestId)).toEqual(event);
  }

  it('log-out closes the sockets of that session, not those of the student’s other browsers', async () => {
    const ada = await createUser(one.app, { name: 'Ada' });
    const thisBrowser = await socket(ada.cookie);
    const otherTab = await socket(await otherBrowser(ada));
    const res = await post(one.app, '/api/auth/logout', {}, ada.cookie);
    expect(res.statusCode).toBe(200);
    expect(await thisBrowser.closeCode()).toBe(WS_CLOSE_SIGNED_OUT);
    await stillLive(otherTab.client, ada.id);
  });

  it('a password reset closes every socket of the student', async () => {
    const ada = await createUser(one.app, { name: 'Ada' });
    const bob = await createUser(one.app, { name: 'Bob' });
    const sockets = [await socket(ada.cookie), await socket(await otherBrowser(ada))];
    const bystander = await socket(bob.cookie);
    expect((await post(one.app, '/api/auth/password-reset', { email: ada.email })).statusCode).toBe(200);
    const oobCode = mail.lastCode(ada.email, 'resetPassword');
    const res = await post(one.app, '/api/auth/password-reset/confirm', { oobCode, password: 'a-new-password' });
    expect(res.statusCode, res.body).toBe(200);
    for (const s of sockets) expect(await s.closeCode()).toBe(WS_CLOSE_SIGNED_OUT);
    await stillLive(bystander.client, bob.id);
  });

  it('disabling an account closes every socket of the student and ends their sessions', async () => {
    const ada = await createUser(one.app, { name: 'Ada' });
    const sockets = [await socket(ada.cookie), await socket(await otherBrowser(ada))];
    expect(await disableAccount(one.app.ctx, ada.id)).toBe(true);
    for (const s of sockets) expect(await s.closeCode()).toBe(WS_CLOSE_SIGNED_OUT);
    const session = await one.app.inject({ url: '/api/auth/session', headers: { cookie: ada.cookie } });
    expect(session.json().user).toBeNull();
    await expect(WsTestClient.connect(socketUrl, ada.cookie)).rejects.toThrow('401');
    expect(await disableAccount(one.app.ctx, 'no-such-user')).toBe(false);
  });

  it('unfriending unsubscribes both students from their chat: no typing with the name arrives, both stay connected', async () => {
    const [ada, bob] = await friends(one.app, 2, ['Ada', 'Bob']);
    const topic = conversationTopic(chatRef(ada, bob));
    const [adaTab, bobTab] = [await socket(ada.cookie), await socket(bob.cookie)];
    for (const tab of [adaTab, bobTab]) {
      tab.client.send({ op: 'subscribe', topic });
      await tab.client.waitFor((f) => f.type === 'subscribed' && f.topic === topic);
    }
    const res = await one.app.inject({
      method: 'DELETE',
      url: `/api/social/friends/${bob.id}`,
      headers: { cookie: ada.cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    // Typing that was on its way when the friendship ended (it was authorised a moment before).
    const typing: RealtimeEvent = { type: 'typing', conversation: chatRef(ada, bob), userId: ada.id, name: 'Ada' };
    one.app.ctx.realtime.publish([topic], typing);
    for (const [tab, user] of [
      [adaTab, ada],
      [bobTab, bob],
    ] as const) {
      // Delivered after the typing on the same bus: once it is here, the typing would have been too.
      await stillLive(tab.client, user.id);
      expect(tab.client.events.filter((e) => e.type === 'typing')).toEqual([]);
      expect(await tab.closeCode(0)).toBe('open');
    }
  });
});
