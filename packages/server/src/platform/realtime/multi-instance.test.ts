import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { chatRef, friends, post } from '../../features/chat/chat.test-kit.ts';
import type { TestUser } from '../../test/users.ts';
import { WsTestClient } from './ws-test-client.ts';

/** Acceptance 6: two instances on one PostgreSQL database deliver each other's messages in real time. */
describe.skipIf(!process.env.TEST_DATABASE_URL)('two instances on one PostgreSQL database', () => {
  let one: TestApp;
  let two: App;
  let twoDir: string;
  let urls: [string, string];
  let ada: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    one = await createTestApp();
    twoDir = await mkdtemp(path.join(tmpdir(), 'sb-test-two-'));
    two = await buildApp(
      loadConfig({
        DATA_DIR: twoDir,
        LOG_LEVEL: 'silent',
        PUBLIC_URL: 'http://localhost:3000',
        DATABASE_URL: one.config.databaseUrl!,
      }),
      { logger: false },
    );
    urls = [await one.app.listen({ port: 0, host: '127.0.0.1' }), await two.listen({ port: 0, host: '127.0.0.1' })];
    [ada, bob] = await friends(one.app, 2, ['Ada', 'Bob']);
  });
  afterAll(async () => {
    await two.close();
    await one.close();
    await rm(twoDir, { recursive: true, force: true });
  });

  it('a message posted through instance 1 reaches a client of instance 2, and back', async () => {
    const bobOnTwo = await WsTestClient.connect(urls[1], bob.cookie);
    const adaOnOne = await WsTestClient.connect(urls[0], ada.cookie);
    try {
      await bobOnTwo.waitFor((f) => f.type === 'hello');
      await adaOnOne.waitFor((f) => f.type === 'hello');
      const sent = (await post(one.app, ada, chatRef(ada, bob), { content: 'across instances' })).json().message;
      expect(await bobOnTwo.waitForEvent('message.created')).toEqual({ type: 'message.created', message: sent });
      expect(await bobOnTwo.waitForEvent('unread.changed')).toMatchObject({ count: 1, friendId: ada.id });

      const reply = (await post(two, bob, chatRef(ada, bob), { content: 'got it' })).json().message;
      expect(await adaOnOne.waitForEvent('message.created', (e) => e.message.id === reply.id)).toMatchObject({
        message: { content: 'got it' },
      });
    } finally {
      await bobOnTwo.close();
      await adaOnOne.close();
    }
  });
});
