import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { newAvatarPath } from './avatars.service.ts';

describe('GET /api/avatars/:seed.svg', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('serves a robot avatar generated from the seed, cacheable for good', async () => {
    const res = await t.app.inject({ url: '/api/avatars/robot-42.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body.startsWith('<svg')).toBe(true);
    expect(res.body).toContain('bottts');
    const same = await t.app.inject({ url: '/api/avatars/robot-42.svg' });
    expect(same.body).toBe(res.body);
    const other = await t.app.inject({ url: '/api/avatars/robot-43.svg' });
    expect(other.body).not.toBe(res.body);
  });

  it('new profiles get a random seed each', () => {
    const a = newAvatarPath();
    expect(a).toMatch(/^\/api\/avatars\/[\w-]{16}\.svg$/);
    expect(newAvatarPath()).not.toBe(a);
  });

  it.each([
    '/api/avatars/robot.png',
    '/api/avatars/.svg',
    `/api/avatars/${'x'.repeat(65)}.svg`,
    '/api/avatars/a%20b.svg',
  ])('%s is not an avatar', async (url) => {
    const res = await t.app.inject({ url });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
  });
});
