import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@studybuddy/shared/messages';
import { feedback } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

describe('feedback per IP per hour (QUOTA_FEEDBACK_PER_HOUR)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ QUOTA_FEEDBACK_PER_HOUR: '2' });
  });
  afterAll(() => t.close());

  const send = (ip: string, payload: object = { feedback: 'Nice', rating: 5 }) =>
    t.app.inject({ method: 'POST', url: '/api/feedback', payload, remoteAddress: ip });

  it('refuses the third message from one IP (signed out) with 429 quota_exceeded; other IPs go on', async () => {
    // Invalid feedback does not count.
    expect((await send('10.1.1.1', { feedback: '  ', rating: 5 })).statusCode).toBe(400);
    expect((await send('10.1.1.1')).statusCode).toBe(201);
    expect((await send('10.1.1.1')).statusCode).toBe(201);
    const over = await send('10.1.1.1');
    expect(over.statusCode).toBe(429);
    expect(over.json().error).toEqual({
      code: 'quota_exceeded',
      message: MSG.quota.exceeded(MSG.quota.feedbackPerHour, '2', MSG.quota.tryLater),
    });
    expect((await send('10.2.2.2')).statusCode).toBe(201);
    expect(await t.app.ctx.db.select().from(feedback)).toHaveLength(3);
  });
});
