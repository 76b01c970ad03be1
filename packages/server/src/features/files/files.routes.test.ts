import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { fileUrl, type UploadedFile } from '@studybuddy/shared/files';
import { MSG } from '@studybuddy/shared/messages';
import { registerAccessRule } from '../../platform/storage/access.ts';
import { startLocalS3, type LocalS3 } from '../../platform/storage/s3-test-server.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { storedKey } from './files.service.ts';
import { jpegWithGps, noisePng, uploadDirect } from './upload-test-helpers.ts';

const drivers: [string, boolean][] = [
  ['local disk', false],
  ['S3', true],
];

describe.each(drivers)('uploads and serving on %s storage', (_name, useS3) => {
  let t: TestApp;
  let s3: LocalS3 | undefined;
  let owner: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    s3 = useS3 ? await startLocalS3() : undefined;
    t = await createTestApp(s3?.env ?? {});
    expect(t.app.ctx.storage.driver).toBe(useS3 ? 's3' : 'fs');
    owner = await createUser(t.app);
    other = await createUser(t.app);
  });
  afterAll(async () => {
    await t.close();
    await s3?.close();
  });

  it('re-encodes a JPEG with GPS EXIF and serves it without any EXIF, keyed by its content and cached for a year', async () => {
    const original = await jpegWithGps();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const res = await uploadDirect(t.app, owner.cookie, original, { filename: 'IMG_0001.jpg' });
    expect(res.statusCode).toBe(201);
    const file = res.json<{ file: UploadedFile }>().file;
    expect(file.contentType).toBe('image/jpeg');
    expect(file.path).toMatch(new RegExp(`^users/${owner.id}/profile/[0-9a-f]{64}\\.jpg$`));
    expect(file.url).toBe(fileUrl(file.path));

    const served = await t.app.inject({ method: 'GET', url: file.url, headers: { cookie: other.cookie } });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    const bytes = served.rawPayload;
    const contentSha256 = createHash('sha256').update(bytes).digest('hex');
    expect(file.path).toContain(storedKey(contentSha256, owner.id, 'IMG_0001.jpg'));
    const meta = await sharp(bytes).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.width).toBe(640);
    expect(bytes.includes(Buffer.from('Exif\0\0'))).toBe(false);
    expect(bytes.includes(Buffer.from('PhoneCo'))).toBe(false);

    const again = await t.app.inject({
      method: 'GET',
      url: file.url,
      headers: { cookie: other.cookie, 'if-none-match': served.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
  });

  it('refuses a text file renamed .png, judged by its bytes, and stores nothing', async () => {
    const res = await uploadDirect(t.app, owner.cookie, Buffer.from('just some notes, not a picture\n'.repeat(20)), {
      filename: 'notes.png',
      type: 'image/png',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { code: 'bad_request', message: MSG.files.notAnImage, field: 'file' } });
    const stored = await t.app.ctx.storage.list(`users/${owner.id}`);
    expect(stored.every((p) => p.endsWith('.jpg') || p.endsWith('.png'))).toBe(true);
    for (const p of stored) expect((await t.app.ctx.storage.head(p))?.contentType).toMatch(/^image\//);
  });

  it('keeps real transparency as PNG (opaque images become JPEG) and caps the longer side at 2048 px', async () => {
    const big = await sharp({
      create: { width: 3000, height: 1000, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    expect(big.length).toBeLessThan(262_144);
    const res = await uploadDirect(t.app, owner.cookie, big, { filename: 'logo.png', type: 'image/png' });
    expect(res.statusCode).toBe(201);
    const file = res.json<{ file: UploadedFile }>().file;
    expect(file.contentType).toBe('image/png');
    const served = await t.app.inject({ method: 'GET', url: file.url, headers: { cookie: owner.cookie } });
    const meta = await sharp(served.rawPayload).metadata();
    expect([meta.width, meta.height, meta.hasAlpha]).toEqual([2048, 683, true]);

    // An alpha channel that is fully opaque is not transparency: that picture becomes a JPEG.
    const opaque = await sharp({ create: { width: 50, height: 50, channels: 4, background: '#336699ff' } })
      .png()
      .toBuffer();
    const res2 = await uploadDirect(t.app, owner.cookie, opaque, { filename: 'opaque.png', type: 'image/png' });
    expect(res2.json<{ file: UploadedFile }>().file.contentType).toBe('image/jpeg');
  });

  it('takes at most 262144 bytes in one request and points larger files to the resumable path', async () => {
    const big = await noisePng(160, 160);
    expect(big.length).toBeGreaterThan(262_144 / 4);
    const over = Buffer.concat([big, Buffer.alloc(262_145 - big.length)]);
    const res = await uploadDirect(t.app, owner.cookie, over, { filename: 'big.png', type: 'image/png' });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.message).toBe(MSG.files.tooLargeForDirect);
  });

  it('refuses signed-out uploads and reads, unknown targets and empty files', async () => {
    const jpeg = await jpegWithGps(32, 32);
    expect((await uploadDirect(t.app, '', jpeg)).statusCode).toBe(401);
    const unknown = await uploadDirect(t.app, owner.cookie, jpeg, { target: 'nowhere' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toBe(MSG.files.unknownTarget);
    const empty = await uploadDirect(t.app, owner.cookie, Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toBe(MSG.files.empty);
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/uploads/profile-image',
      headers: { cookie: owner.cookie },
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(415);

    const uploaded = (await uploadDirect(t.app, owner.cookie, jpeg)).json<{ file: UploadedFile }>().file;
    const anonymous = await t.app.inject({ method: 'GET', url: uploaded.url });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('unauthenticated');
  });

  it('answers 404 for a missing object and 403 for a forbidden one, in the standard error JSON', async () => {
    const storage = t.app.ctx.storage;
    await storage.put(`users/${owner.id}/private/notes.txt`, Buffer.from('mine'), { contentType: 'text/plain' });
    await storage.put('unclaimed/file.txt', Buffer.from('nobody claimed this folder'), { contentType: 'text/plain' });

    const own = await t.app.inject({
      method: 'GET',
      url: `/api/files/users/${owner.id}/private/notes.txt`,
      headers: { cookie: owner.cookie },
    });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-disposition']).toMatch(/^attachment;/);
    expect(own.body).toBe('mine');

    for (const url of [`/api/files/users/${owner.id}/private/notes.txt`, '/api/files/unclaimed/file.txt']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie: other.cookie } });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: { code: 'forbidden', message: MSG.api.forbidden } });
    }
    const missing = await t.app.inject({
      method: 'GET',
      url: `/api/files/users/${owner.id}/profile/${'0'.repeat(64)}.jpg`,
      headers: { cookie: other.cookie },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: { code: 'not_found', message: MSG.api.notFound } });
    const traversal = await t.app.inject({
      method: 'GET',
      url: `/api/files/users/${owner.id}/..%2F..%2Fsecret.key`,
      headers: { cookie: owner.cookie },
    });
    expect(traversal.statusCode).toBe(404);
  });

  it('lets a feature register who may read its folder (longest folder wins)', async () => {
    const ctx = t.app.ctx;
    registerAccessRule(ctx, 'rooms', (reader, fullPath) => fullPath.split('/')[1] === `room-${reader.id}`);
    registerAccessRule(ctx, 'rooms/lobby', () => true);
    expect(() => registerAccessRule(ctx, 'rooms', () => true)).toThrow(/already registered/);
    await ctx.storage.put(`rooms/room-${owner.id}/a.txt`, Buffer.from('a'), { contentType: 'text/plain' });
    await ctx.storage.put('rooms/lobby/b.txt', Buffer.from('b'), { contentType: 'text/plain' });
    const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
    expect((await get(`/api/files/rooms/room-${owner.id}/a.txt`, owner.cookie)).statusCode).toBe(200);
    expect((await get(`/api/files/rooms/room-${owner.id}/a.txt`, other.cookie)).statusCode).toBe(403);
    expect((await get('/api/files/rooms/lobby/b.txt', other.cookie)).statusCode).toBe(200);
  });
});
