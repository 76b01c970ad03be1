import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushPayload } from '@studybuddy/shared/push-api';
import { sessions, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import type { TestUser } from '../../test/users.ts';
import { befriend, chatRef, friends, post } from '../chat/chat.test-kit.ts';
import { browserKeys, decryptPush, startPushService, type BrowserKeys, type TestPushService } from './push.test-kit.ts';

/** Issue 23 point 4: a notice goes only to browsers whose session is live, of a student who is not disabled. */
describe('push reaches live sessions of enabled students only', () => {
  let t: TestApp;
  let service: TestPushService;
  let devices = 0;

  beforeAll(async () => {
    service = await startPushService();
    t = await createTestApp({ PUSH_SERVICE_HOSTS: '127.0.0.1', PUSH_CA_FILE: service.caFile });
  });
  afterAll(async () => {
    await t?.close();
    await service?.close();
  });

  async function subscribeDevice(user: TestUser): Promise<{ keys: BrowserKeys; path: string }> {
    const keys = browserKeys();
    const path = `/push/live-${++devices}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/push/subscriptions',
      headers: { cookie: user.cookie },
      payload: { endpoint: `${service.origin}${path}`, expirationTime: null, keys: keys.json },
    });
    expect(res.statusCode, res.body).toBe(201);
    return { keys, path };
  }

  async function bodiesAt(device: { keys: BrowserKeys; path: string }): Promise<string[]> {
    await t.app.ctx.registry.push.idle();
    return service.received
      .filter((r) => r.path === device.path)
      .map((r) => (JSON.parse(decryptPush(r.body, device.keys)) as PushPayload).body);
  }

  /**
   * Nothing more reaches `device` for what was sent before: a later notice to a live student's device (`fence`)
   * arrives, then everything queued before it has been sent too (notices are looked up in the order written).
   */
  async function nothingMoreAt(device: { keys: BrowserKeys; path: string }, sender: TestUser, want: string[]) {
    const [fence] = await friends(t.app, 1, ['Fence']);
    await befriend(t.app, sender, fence!);
    const fenceDevice = await subscribeDevice(fence!);
    await post(t.app, sender, chatRef(sender, fence!), { content: 'fence' });
    await expect.poll(() => bodiesAt(fenceDevice), { timeout: 30_000 }).toEqual(['fence']);
    expect(await bodiesAt(device)).toEqual(want);
  }

  it('sends nothing to a browser whose session has expired (the row is still there)', async () => {
    const [ada, ben] = await friends(t.app, 2, ['Ada', 'Ben']);
    const device = await subscribeDevice(ben);
    await post(t.app, ada, chatRef(ada, ben), { content: 'while signed in' });
    // Sent in the background after the answer: waited for, not assumed.
    await expect.poll(() => bodiesAt(device), { timeout: 30_000 }).toEqual(['while signed in']);

    await t.app.ctx.db
      .update(sessions)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(sessions.userId, ben.id));
    await post(t.app, ada, chatRef(ada, ben), { content: 'after the session ended' });
    await nothingMoreAt(device, ada, ['while signed in']);
  });

  it('sends nothing to a disabled student', async () => {
    const [ada, ben] = await friends(t.app, 2, ['Ada', 'Ben']);
    const device = await subscribeDevice(ben);
    await t.app.ctx.db.update(users).set({ disabled: true }).where(eq(users.id, ben.id));
    await post(t.app, ada, chatRef(ada, ben), { content: 'to a disabled account' });
    await nothingMoreAt(device, ada, []);
  });
});
