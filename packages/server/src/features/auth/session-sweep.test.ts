import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { pushSubscriptions, sessions } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { sweepExpiredSessions } from './session-sweep.ts';

/** Issue 23 point 4: expired sessions, and the push subscriptions of their browsers, are removed periodically. */

const id = () => randomBytes(16).toString('hex');

/** A session of `user` (expired or not) with one push subscription; answers the session id. */
async function sessionWithSubscription(app: App, user: TestUser, expired: boolean): Promise<string> {
  const sessionId = id();
  const expiresAt = expired ? sql`now() - interval '1 day'` : sql`now() + interval '1 day'`;
  await app.ctx.db.insert(sessions).values({ id: sessionId, userId: user.id, expiresAt });
  await app.ctx.db.insert(pushSubscriptions).values({
    id: id(),
    userId: user.id,
    sessionId,
    endpoint: `https://push.example/${sessionId}`,
    p256dh: 'key',
    auth: 'auth',
  });
  return sessionId;
}

const sessionsLeft = async (app: App, ids: string[]) =>
  (await app.ctx.db.select({ id: sessions.id }).from(sessions).where(inArray(sessions.id, ids))).map((r) => r.id);
const subscriptionsLeft = async (app: App, ids: string[]) =>
  (
    await app.ctx.db
      .select({ sessionId: pushSubscriptions.sessionId })
      .from(pushSubscriptions)
      .where(inArray(pushSubscriptions.sessionId, ids))
  ).map((r) => r.sessionId);

describe('expired sessions are swept', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('by a job of the app itself: expired sessions and their subscriptions go, live ones stay', async () => {
    const ada = await createUser(t.app, { name: 'Ada' });
    const expired = await sessionWithSubscription(t.app, ada, true);
    const live = await sessionWithSubscription(t.app, ada, false);
    // Nothing but the app runs the sweep: it starts once the app is ready.
    await t.app.ready();
    const deadline = Date.now() + 10_000;
    while ((await sessionsLeft(t.app, [expired])).length && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await sessionsLeft(t.app, [expired, live])).toEqual([live]);
    expect(await subscriptionsLeft(t.app, [expired, live])).toEqual([live]);
  });

  it('runs the features’ session clean-ups with the ids, in the transaction that deletes the sessions', async () => {
    const ada = await createUser(t.app, { name: 'Ada' });
    const expired = [await sessionWithSubscription(t.app, ada, true), await sessionWithSubscription(t.app, ada, true)];
    const seen: string[][] = [];
    t.app.ctx.registry.sessionCleanups.push(async (db, ids) => {
      // Still there: the cleanup runs before the rows are deleted.
      expect((await db.select().from(sessions).where(inArray(sessions.id, ids))).length).toBe(ids.length);
      seen.push(ids);
    });
    try {
      expect(await sweepExpiredSessions(t.app.ctx)).toBe(2);
    } finally {
      t.app.ctx.registry.sessionCleanups.pop();
    }
    expect(seen.flat().sort()).toEqual([...expired].sort());
    expect(await sessionsLeft(t.app, expired)).toEqual([]);
  });
});

/**
 * Several instances sweep at the same time: each expired session is taken by one of them only (PostgreSQL; on
 * PGlite one app sweeps twice at once).
 */
describe('sweeps running at once', () => {
  let one: TestApp;
  let two: App | undefined;
  let twoDir: string | undefined;
  beforeAll(async () => {
    one = await createTestApp();
    if (one.config.databaseUrl) {
      twoDir = await mkdtemp(path.join(tmpdir(), 'sb-test-sweep-'));
      two = await buildApp(
        loadConfig({
          DATA_DIR: twoDir,
          LOG_LEVEL: 'silent',
          PUBLIC_URL: 'http://localhost:3000',
          DATABASE_URL: one.config.databaseUrl,
        }),
        { logger: false },
      );
    }
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
    if (twoDir) await rm(twoDir, { recursive: true, force: true });
  });

  it('take each expired session once', async () => {
    const apps = [one.app, two ?? one.app];
    const ada = await createUser(one.app, { name: 'Ada' });
    const expired: string[] = [];
    for (let i = 0; i < 40; i++) expired.push(await sessionWithSubscription(one.app, ada, true));
    const cleaned: string[] = [];
    const record = async (_db: unknown, ids: string[]) => {
      cleaned.push(...ids);
      await new Promise((r) => setTimeout(r, 5));
    };
    for (const app of new Set(apps)) app.ctx.registry.sessionCleanups.push(record);
    try {
      const removed = await Promise.all(apps.map((app) => sweepExpiredSessions(app.ctx, 5)));
      expect(removed.reduce((a, b) => a + b, 0)).toBe(expired.length);
    } finally {
      for (const app of new Set(apps)) app.ctx.registry.sessionCleanups.pop();
    }
    expect(cleaned.sort()).toEqual([...expired].sort());
    expect(await sessionsLeft(one.app, expired)).toEqual([]);
    expect(await subscriptionsLeft(one.app, expired)).toEqual([]);
    expect(await one.app.ctx.db.select().from(sessions).where(eq(sessions.userId, ada.id))).toHaveLength(1);
  });
});
