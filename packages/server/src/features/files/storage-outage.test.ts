// Issue 31 case 2: the S3 store answers 500s, then does not answer at all, then comes back. Uploads and downloads
// are refused with a clear 503 and nothing staged or counted is left behind; nothing waits past its timeout; the
// server needs no restart to use the store again.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_TARGETS } from '@studybuddy/shared/files';
import { MSG } from '@studybuddy/shared/messages';
import { StorageUnavailableError } from '../../platform/faults.ts';
import { createS3Storage, S3_TIMEOUTS } from '../../platform/storage/s3-storage.ts';
import { startLocalS3, type LocalS3 } from '../../platform/storage/s3-test-server.ts';
import { startFaultyProxy, type FaultyProxy } from '../../test/faulty-http-proxy.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { pngBytes } from '../chat/chat.test-kit.ts';
import { storageUsed } from './storage-quota.service.ts';
import { uploadDirect } from './upload-test-helpers.ts';

const unavailable = { error: { code: 'storage_unavailable', message: MSG.faults.storageUnavailable } };

/** Every file (not folder) under `dir`, recursively; none when it does not exist. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe('the S3 store failing, hanging and coming back (issue 31 case 2)', () => {
  let s3: LocalS3;
  let proxy: FaultyProxy;
  let t: TestApp;
  let user: TestUser;
  let base: string;
  beforeAll(async () => {
    s3 = await startLocalS3();
    proxy = await startFaultyProxy(s3.config.endpoint!);
    t = await createTestApp({ ...s3.env, S3_ENDPOINT: proxy.url });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    user = await createUser(t.app);
  });
  afterEach(() => {
    proxy.mode = 'pass';
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await s3?.close();
  });

  it('refuses uploads and downloads with a clear 503 while it answers 500, leaves nothing behind, and recovers', async () => {
    const stored = await uploadDirect(t.app, user.cookie, await pngBytes(), { filename: 'a.png', type: 'image/png' });
    expect(stored.statusCode).toBe(201);
    const file = stored.json<{ file: { url: string; size: number } }>().file;
    const used = await storageUsed(t.app.ctx.db, user.id);

    proxy.mode = 'error';
    const download = await t.app.inject({ url: file.url, headers: { cookie: user.cookie } });
    expect(download.statusCode).toBe(503);
    expect(download.json()).toEqual(unavailable);
    expect(download.headers['retry-after']).toBe('2');

    const upload = await uploadDirect(t.app, user.cookie, await pngBytes(80, 60), {
      filename: 'b.png',
      type: 'image/png',
    });
    expect(upload.statusCode).toBe(503);
    expect(upload.json()).toEqual(unavailable);
    // The refused file is not counted against the student's storage.
    expect(await storageUsed(t.app.ctx.db, user.id)).toBe(used);

    // A resumable upload cannot even start: its staging lives in the bucket.
    const resumable = await fetch(`${base}/api/resumable`, {
      method: 'POST',
      headers: {
        cookie: user.cookie,
        origin: t.config.publicUrl,
        'Tus-Resumable': '1.0.0',
        'Upload-Length': String(400_000),
        'Upload-Metadata': `target ${Buffer.from('profile-image').toString('base64')},filename ${Buffer.from('c.png').toString('base64')}`,
      },
    });
    expect(resumable.status).toBe(503);
    expect(await resumable.json()).toEqual(unavailable);

    const ready = await t.app.inject({ url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ ready: false, database: { status: 'up' }, storage: { status: 'down' } });
    // Nothing staged on this instance's disk either.
    expect(await filesUnder(path.join(t.config.dataDir, 'tmp'))).toEqual([]);
    expect(await filesUnder(path.join(t.config.dataDir, 'uploads'))).toEqual([]);
    expect(proxy.counts.error).toBeGreaterThan(0);

    proxy.mode = 'pass';
    expect((await t.app.inject({ url: '/api/health/ready' })).statusCode).toBe(200);
    const again = await t.app.inject({ url: file.url, headers: { cookie: user.cookie } });
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.length).toBe(file.size);
    const retried = await uploadDirect(t.app, user.cookie, await pngBytes(80, 60), {
      filename: 'b.png',
      type: 'image/png',
    });
    expect(retried.statusCode).toBe(201);
  });

  it('gives up on a store that hangs within its timeouts, and uses it again once it answers', async () => {
    const timeouts = { connectMs: 500, idleMs: 300, attempts: 2, totalMs: 1000 };
    const storage = createS3Storage({ ...s3.config, endpoint: proxy.url }, { timeouts });
    await storage.put('faults/kept.txt', Buffer.from('kept'), { contentType: 'text/plain' });

    proxy.mode = 'hang';
    for (const [what, op] of [
      ['get', () => storage.get('faults/kept.txt')],
      ['head', () => storage.head('faults/kept.txt')],
      ['put', () => storage.put('faults/new.txt', Buffer.from('new'), { contentType: 'text/plain' })],
      ['check', () => storage.check()],
    ] as const) {
      const started = performance.now();
      await expect(op(), what).rejects.toBeInstanceOf(StorageUnavailableError);
      // Two attempts of 300 ms without an answer, cut at 1 s in all: never the default minutes.
      expect(performance.now() - started, what).toBeLessThan(timeouts.totalMs + 400);
    }
    expect(proxy.counts.hang).toBeGreaterThan(0);

    proxy.mode = 'pass';
    const got = await storage.get('faults/kept.txt');
    expect(got?.meta.size).toBe(4);
    got?.body.destroy();
    expect(await storage.head('faults/new.txt')).toBeNull();
  });

  it('takes its timeouts from the settings: one attempt of S3_IDLE_TIMEOUT, for stored files and resumable staging', async () => {
    const quick = await createTestApp({
      ...s3.env,
      S3_ENDPOINT: proxy.url,
      S3_CONNECT_TIMEOUT: '0.5',
      S3_IDLE_TIMEOUT: '0.3',
      S3_ATTEMPTS: '1',
    });
    try {
      const student = await createUser(quick.app);
      proxy.mode = 'hang';
      const png = await pngBytes();
      const started = performance.now();
      const upload = await uploadDirect(quick.app, student.cookie, png, { filename: 'quick.png', type: 'image/png' });
      expect(upload.statusCode).toBe(503);
      expect(upload.json()).toEqual(unavailable);
      // Before: the settings did not exist, and one request alone waited the default 5 s for an answer.
      expect(performance.now() - started).toBeLessThan(S3_TIMEOUTS.idleMs);

      const seen = proxy.counts.hang;
      const created = await quick.app.inject({
        method: 'POST',
        url: '/api/resumable',
        headers: {
          cookie: student.cookie,
          'Tus-Resumable': '1.0.0',
          'Upload-Length': '300000',
          'Upload-Metadata': `target ${Buffer.from(UPLOAD_TARGETS.profileImage).toString('base64')}`,
        },
      });
      expect(created.statusCode).toBe(503);
      // One attempt, as set (the default is two).
      expect(proxy.counts.hang - seen).toBe(1);
    } finally {
      proxy.mode = 'pass';
      await quick.close();
    }
  });
});
