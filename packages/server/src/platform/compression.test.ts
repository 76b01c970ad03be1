import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { OPENAPI_JSON_PATH } from './openapi.ts';

/** A built script with its Brotli and gzip copies, as packages/web/vite-precompress.ts writes them. */
const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i}`))};\n`;

describe('compressed answers', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = await mkdtemp(path.join(tmpdir(), 'sb-dist-'));
    await mkdir(path.join(dist, 'assets'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    await writeFile(path.join(dist, 'assets', 'app-1234.js'), script);
    await writeFile(path.join(dist, 'assets', 'app-1234.js.br'), brotliCompressSync(script));
    await writeFile(path.join(dist, 'assets', 'app-1234.js.gz'), gzipSync(script));
    t = await createTestApp({ WEB_DIST: dist });
  });
  afterAll(async () => {
    await t?.close();
    await rm(dist, { recursive: true, force: true });
  });

  it.each([
    ['br', (b: Buffer) => brotliDecompressSync(b)],
    ['gzip', (b: Buffer) => gunzipSync(b)],
  ])('a built script goes out as its %s copy, still cached for good', async (encoding, decode) => {
    const res = await t.app.inject({ url: '/assets/app-1234.js', headers: { 'accept-encoding': `${encoding}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['content-type']).toContain('javascript');
    expect(res.headers.vary).toContain('Accept-Encoding');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload.length).toBeLessThan(script.length);
    expect(decode(res.rawPayload).toString()).toBe(script);
  });

  it('a client that accepts no encoding gets the file as it is', async () => {
    const res = await t.app.inject({ url: '/assets/app-1234.js', headers: { 'accept-encoding': 'identity' } });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(script);
  });

  it('JSON answers of 1 KB or more are compressed by Accept-Encoding, smaller ones are not', async () => {
    const big = await t.app.inject({ url: OPENAPI_JSON_PATH, headers: { 'accept-encoding': 'gzip, br' } });
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-encoding']).toBe('br');
    const spec = JSON.parse(brotliDecompressSync(big.rawPayload).toString()) as { openapi: string };
    expect(spec.openapi).toMatch(/^3\./);

    const small = await t.app.inject({ url: '/api/health/live', headers: { 'accept-encoding': 'gzip, br' } });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('a compressed request body is not unpacked (a small gzip body could unpack to gigabytes)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ email: 'a@g.ucla.edu', password: 'x'.repeat(10) })),
    });
    expect(res.statusCode).toBe(400);
  });
});
