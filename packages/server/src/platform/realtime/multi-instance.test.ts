import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { secondInstance } from '../../test/second-instance.ts';
import { chatRef, friends, post } from '../../features/chat/chat.test-kit.ts';
import type { TestUser } from '../../test/users.ts';
import { WsTestClient } from './ws-test-client.ts';

/** Acceptance 6: two instances on one PostgreSQL database deliver each other's messages in real time. */
describe.skipIf(!process.env.TEST_DATABASE_URL)('two instances on one PostgreSQL database', () => {
  let one: TestApp;
  let two: App;
  let closeBoth: () => Promise<void>;
  let urls: [string, string];
  let ada: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    one = await createTestApp();
    ({ two, urls, close: closeBoth } = await secondInstance(one));
    [ada, bob] = await friends(one.app, 2, ['Ada', 'Bob']);
  });
  afterAll(async () => {
    await closeBoth();
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
