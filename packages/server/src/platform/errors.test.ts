import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';

describe('API error format', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers unknown /api routes with 404 JSON', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 'not_found', message: 'Not found' } });
  });

  it('answers a malformed JSON body with 400 JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/feedback',
      headers: { 'content-type': 'application/json' },
      payload: '{"feedback": "x", ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('invalid_json');
  });

  it.each(['text/plain', 'application/xml', 'application/x-www-form-urlencoded'])(
    'answers content type %s with 415 JSON',
    async (type) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/feedback',
        headers: { 'content-type': type },
        payload: 'feedback=x',
      });
      expect(res.statusCode).toBe(415);
      expect(res.json().error.code).toBe('unsupported_media_type');
    },
  );

  it('answers an oversized body with 413 JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/feedback',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ feedback: 'x'.repeat(2 * 1024 * 1024), rating: 5 }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('payload_too_large');
  });

  it('refuses a state-changing call from another origin', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/feedback',
      headers: { origin: 'https://evil.example' },
      payload: { feedback: 'x', rating: 5 },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('forbidden');
  });

  it('reports database and storage state on /api/health', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: { ok: true }, storage: { driver: 'fs', ok: true } });
  });
});
