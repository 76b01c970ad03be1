import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@studybuddy/shared/messages';
import { AppError } from './errors.ts';
import { createQuota, DAY_MS, type QuotaRule } from './quota.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';

describe('quota counters', () => {
  let t: TestApp;
  let clock = new Date('2030-01-01T00:00:00Z');
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  const rule: QuotaRule = { what: MSG.quota.documentsPerDay, limit: 3, windowMs: DAY_MS, when: MSG.quota.tryTomorrow };
  const quota = () => createQuota(t.app.ctx.db, () => clock);
  const outcome = (p: Promise<void>) =>
    p.then(
      () => 'ok',
      (err: unknown) => (err instanceof AppError ? `${err.statusCode} ${err.message}` : String(err)),
    );

  it('allows the limit, refuses the next with a text naming the limit, and frees up with the next window', async () => {
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await outcome(quota().consume('docs:u1', rule)));
    expect(results).toEqual([
      'ok',
      'ok',
      'ok',
      '429 Limit reached: course documents uploaded per day (3). Please try again tomorrow.',
    ]);
    expect(await outcome(quota().consume('docs:u2', rule))).toBe('ok');
    clock = new Date(clock.getTime() + DAY_MS);
    expect(await outcome(quota().consume('docs:u1', rule))).toBe('ok');
  });

  it('counts amounts, never lets concurrent requests past the limit, and refunds', async () => {
    const bytes: QuotaRule = { what: MSG.quota.storage, limit: 100, windowMs: DAY_MS };
    const all = await Promise.all(Array.from({ length: 20 }, () => outcome(quota().consume('bytes:u1', bytes, 10))));
    expect(all.filter((r) => r === 'ok')).toHaveLength(10);
    expect(await outcome(quota().consume('bytes:u1', bytes, 1))).toMatch(/^429/);
    await quota().refund('bytes:u1', 30);
    expect(await outcome(quota().consume('bytes:u1', bytes, 30))).toBe('ok');
    expect(await outcome(quota().consume('bytes:u9', bytes, 101))).toMatch(/^429/);
  });
});
