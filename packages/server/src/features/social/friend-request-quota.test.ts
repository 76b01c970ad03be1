import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MSG } from '@studybuddy/shared/messages';
import { friendRequests } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';

describe('friend requests per day (QUOTA_FRIEND_REQUESTS_PER_DAY)', () => {
  let t: TestApp;
  let me: TestUser;
  let others: TestUser[];
  beforeAll(async () => {
    t = await createTestApp({ QUOTA_FRIEND_REQUESTS_PER_DAY: '2' });
    me = await createUser(t.app, { name: 'Sender' });
    others = [];
    for (let i = 0; i < 3; i++) others.push(await createUser(t.app, { name: `Classmate ${i}` }));
  });
  afterAll(() => t.close());

  const send = (to: TestUser) =>
    t.app.inject({
      method: 'POST',
      url: '/api/social/requests',
      headers: { cookie: me.cookie },
      payload: { toUserId: to.id },
    });

  it('refuses the request over the limit with 429 quota_exceeded naming it; refused requests do not count', async () => {
    expect((await send(others[0]!)).statusCode).toBe(201);
    // Already sent: refused by the rules, not counted.
    expect((await send(others[0]!)).statusCode).toBe(409);
    expect((await send(others[1]!)).statusCode).toBe(201);
    const over = await send(others[2]!);
    expect(over.statusCode).toBe(429);
    expect(over.json().error).toEqual({
      code: 'quota_exceeded',
      message: MSG.quota.exceeded(MSG.quota.friendRequestsPerDay, '2', MSG.quota.tryTomorrow),
    });
    expect(await t.app.ctx.db.select().from(friendRequests).where(eq(friendRequests.fromUserId, me.id))).toHaveLength(
      2,
    );
  });
});
