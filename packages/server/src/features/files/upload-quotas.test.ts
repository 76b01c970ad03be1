// postgres-leg: the storage quota is checked under stored-files.repository.ts's advisory lock
import { createHash, randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@studybuddy/shared/messages';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { chatRef, friends, upload as chatUpload, wavBytes } from '../chat/chat.test-kit.ts';
import { registerUploadTarget, stagingDir } from './files.service.ts';
import { storageUsed } from './storage-quota.service.ts';
import { noisePng, uploadDirect } from './upload-test-helpers.ts';

const TUS = { 'Tus-Resumable': '1.0.0' };
const meta = (m: Record<string, string>) =>
  Object.entries(m)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');
const MB = 1024 * 1024;

describe('upload quotas (storage, resumable uploads per day, unfinished uploads at once)', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp({
      RATE_LIMITS: 'false',
      QUOTA_STORAGE_MB: '1',
      QUOTA_UPLOADS_PER_DAY: '3',
      QUOTA_OPEN_UPLOADS: '2',
    });
    registerUploadTarget(t.app.ctx, 'test-file', { kind: 'file', maxBytes: 8 * MB, folder: (u) => `users/${u.id}/t` });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });
  afterAll(() => t.close());

  const create = (user: TestUser, size: number) =>
    fetch(`${base}/api/resumable`, {
      method: 'POST',
      headers: {
        ...TUS,
        cookie: user.cookie,
        'Upload-Length': String(size),
        'Upload-Metadata': meta({ target: 'test-file', filename: 'f.bin' }),
      },
    });
  const patch = (user: TestUser, url: string, offset: number, body: Buffer) =>
    fetch(`${base}${url}`, {
      method: 'PATCH',
      headers: {
        ...TUS,
        cookie: user.cookie,
        'Upload-Offset': String(offset),
        'Content-Type': 'application/offset+octet-stream',
      },
      body,
    });
  const cancel = (user: TestUser, url: string) =>
    fetch(`${base}${url}`, { method: 'DELETE', headers: { ...TUS, cookie: user.cookie } });
  const refusal = async (res: Response) => ({
    status: res.status,
    ...((await res.json()) as { error: { code: string; message: string } }).error,
  });
  const staged = async (user: TestUser) =>
    (await readdir(stagingDir(t.config))).filter((n) => n.startsWith(`${user.id}.`) && n.endsWith('.json'));

  it('caps unfinished uploads at once and uploads started per day, naming each limit', async () => {
    const ada = await createUser(t.app);
    const first = await create(ada, 1000);
    const second = await create(ada, 1000);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(await refusal(await create(ada, 1000))).toEqual({
      status: 429,
      code: 'quota_exceeded',
      message: MSG.quota.exceeded(MSG.quota.openUploads, '2', MSG.quota.finishUploads),
    });
    expect(await staged(ada)).toHaveLength(2); // the refused one left nothing behind

    expect((await cancel(ada, first.headers.get('location')!)).status).toBe(204);
    expect((await create(ada, 1000)).status).toBe(201); // third of the day
    expect((await cancel(ada, second.headers.get('location')!)).status).toBe(204);
    expect(await refusal(await create(ada, 1000))).toEqual({
      status: 429,
      code: 'quota_exceeded',
      message: MSG.quota.exceeded(MSG.quota.uploadsPerDay, '3', MSG.quota.tryTomorrow),
    });
    expect(await staged(ada)).toHaveLength(1);
  });

  it('counts what a student keeps, what their unfinished uploads declared and the new Upload-Length', async () => {
    const bob = await createUser(t.app);
    const full = MSG.quota.exceeded(MSG.quota.storage, '1 MB', MSG.quota.freeSpace);
    expect(await refusal(await create(bob, 2 * MB))).toEqual({ status: 429, code: 'quota_exceeded', message: full });
    expect(await staged(bob)).toHaveLength(0);

    const kept = randomBytes(700_000);
    const created = await create(bob, kept.length);
    expect((await patch(bob, created.headers.get('location')!, 0, kept)).status).toBe(200);
    expect(await storageUsed(t.app.ctx.db, bob.id)).toBe(700_000);

    const open = await create(bob, 300_000); // 1,000,000 of 1,048,576 bytes
    expect(open.status).toBe(201);
    expect((await refusal(await create(bob, 100_000))).message).toBe(full); // the open upload's bytes count
    expect((await cancel(bob, open.headers.get('location')!)).status).toBe(204);

    // The single-request path: 200 KB fits, the next 200 KB does not and is never written.
    const small = randomBytes(200_000);
    expect((await uploadDirect(t.app, bob.cookie, small, { target: 'test-file', filename: 'a.bin' })).statusCode).toBe(
      201,
    );
    const tooMuch = randomBytes(200_000);
    const refused = await uploadDirect(t.app, bob.cookie, tooMuch, { target: 'test-file', filename: 'b.bin' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toEqual({ code: 'quota_exceeded', message: full });
    const sha = createHash('sha256').update(tooMuch).digest('hex');
    expect(await t.app.ctx.storage.head(`users/${bob.id}/t/${sha}.bin`)).toBeNull();
    expect(await storageUsed(t.app.ctx.db, bob.id)).toBe(900_000);
  });

  it('counts chat voice messages and images against the sender, and refuses the one that does not fit', async () => {
    const [ada, bob] = await friends(t.app, 2, ['Ada', 'Bob']);
    const ref = chatRef(ada, bob);
    const voice = await chatUpload(t.app, ada, ref, 'voice', wavBytes(30), 'audio/wav'); // 960 KB
    expect(voice.statusCode).toBe(201);
    const image = await chatUpload(t.app, ada, ref, 'image', await noisePng(300, 300), 'image/png');
    expect(image.statusCode).toBe(429);
    expect(image.json().error.message).toBe(MSG.quota.exceeded(MSG.quota.storage, '1 MB', MSG.quota.freeSpace));
    expect(await storageUsed(t.app.ctx.db, ada.id)).toBe(wavBytes(30).length);
    // Bob's own space is untouched by what Ada sent.
    expect((await chatUpload(t.app, bob, ref, 'image', await noisePng(300, 300), 'image/png')).statusCode).toBe(201);
  });
});
