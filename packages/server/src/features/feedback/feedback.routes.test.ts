import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MSG } from '@studybuddy/shared/messages';
import { feedback } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

describe('POST /api/feedback', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('stores a valid record with an integer rating', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/feedback',
      payload: { feedback: 'Great app', rating: '4' },
    });
    expect(res.statusCode).toBe(201);
    const [row] = await t.app.ctx.db.select().from(feedback).where(eq(feedback.id, res.json().id));
    expect(row).toMatchObject({ feedback: 'Great app', rating: 4, userId: null });
  });

  it.each([
    [{ feedback: '   ', rating: 3 }, 'feedback', MSG.feedback.textRequired],
    [{ rating: 3 }, 'feedback', MSG.feedback.textRequired],
    [{ feedback: 'ok' }, 'rating', MSG.feedback.ratingRequired],
    [{ feedback: 'ok', rating: 6 }, 'rating', MSG.feedback.ratingRequired],
    [{ feedback: 'ok', rating: 0 }, 'rating', MSG.feedback.ratingRequired],
  ])('refuses %j with 400 naming the field', async (payload, field, message) => {
    const before = await t.app.ctx.db.select().from(feedback);
    const res = await t.app.inject({ method: 'POST', url: '/api/feedback', payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { code: 'validation_failed', message, field } });
    expect(await t.app.ctx.db.select().from(feedback)).toHaveLength(before.length);
  });
});
