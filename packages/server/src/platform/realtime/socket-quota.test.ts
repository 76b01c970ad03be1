import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@studybuddy/shared/messages';
import { WS_CLOSE_QUOTA, type ServerFrame } from '@studybuddy/shared/realtime';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { WsTestClient } from './ws-test-client.ts';

const isHello = (f: ServerFrame) => f.type === 'hello';

describe('open sockets per student (QUOTA_SOCKETS)', () => {
  let t: TestApp;
  let base: string;
  let ada: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ QUOTA_SOCKETS: '2' });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    ada = await createUser(t.app, { name: 'Ada' });
    bob = await createUser(t.app, { name: 'Bob' });
  });
  afterAll(() => t.close());

  const closed = (c: WsTestClient) =>
    new Promise<{ code: number; reason: string }>((resolve) => {
      c.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });

  it('closes the socket over the limit with a code and a reason naming it; a closed one frees a place', async () => {
    const open = [await WsTestClient.connect(base, ada.cookie), await WsTestClient.connect(base, ada.cookie)];
    for (const c of open) await c.waitFor(isHello);

    const third = await WsTestClient.connect(base, ada.cookie);
    const refusal = MSG.quota.exceeded(MSG.quota.sockets, '2', MSG.quota.closeTabs);
    expect(await closed(third)).toEqual({ code: WS_CLOSE_QUOTA, reason: refusal });
    expect(third.frames).toEqual([{ type: 'error', status: 429, code: 'quota_exceeded', message: refusal }]);

    // Another student is not affected.
    const bobs = await WsTestClient.connect(base, bob.cookie);
    await bobs.waitFor(isHello);

    // Closing one lets the next in (once the server has seen it close).
    await open[0]!.close();
    let again = await WsTestClient.connect(base, ada.cookie);
    for (let i = 0; i < 20 && !(await again.waitFor(isHello, 1000).catch(() => null)); i++) {
      again = await WsTestClient.connect(base, ada.cookie);
    }
    expect(again.frames[0]).toMatchObject({ type: 'hello' });
    await Promise.all([open[1]!.close(), again.close(), bobs.close()]);
  });
});
