import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadedFile } from '@studybuddy/shared/files';
import { createS3Storage } from '../../platform/storage/s3-storage.ts';
import { startLocalS3, type LocalS3 } from '../../platform/storage/s3-test-server.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { registerUploadTarget } from './files.service.ts';

const TUS = { 'Tus-Resumable': '1.0.0' };
const MB = 1024 * 1024;
const metadata = (m: Record<string, string>) =>
  Object.entries(m)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

/** STORAGE=s3: tus uploads are staged in the bucket (S3 multipart uploads under resumable/), not on local disk. */
describe('resumable uploads staged in S3', () => {
  let s3: LocalS3;
  let t: TestApp;
  let bucket: Storage;
  let base: string;
  let user: TestUser;
  beforeAll(async () => {
    s3 = await startLocalS3();
    bucket = createS3Storage(s3.config);
    t = await createTestApp({ ...s3.env, QUOTA_STORAGE_MB: '100' });
    registerUploadTarget(t.app.ctx, 'test-file', { kind: 'file', maxBytes: 32 * MB, folder: (u) => `users/${u.id}/t` });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    user = await createUser(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  const create = (size: number, name: string) =>
    fetch(`${base}/api/resumable`, {
      method: 'POST',
      headers: {
        ...TUS,
        cookie: user.cookie,
        'Upload-Length': String(size),
        'Upload-Metadata': metadata({ target: 'test-file', filename: name }),
      },
    });
  const head = (url: string) => fetch(`${base}${url}`, { method: 'HEAD', headers: { ...TUS, cookie: user.cookie } });
  const patch = (url: string, offset: number, body: Buffer) =>
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
  const staged = () => bucket.list('resumable');

  it('assembles 12 MB sent in 4 MB chunks (two S3 parts, the rest waiting as an incomplete part) and drops the staging', async () => {
    const data = randomBytes(12 * MB + 1234);
    const created = await create(data.length, 'big.bin');
    expect(created.status).toBe(201);
    const url = created.headers.get('location')!;
    const id = url.split('/').pop()!;

    const chunks = [0, 4 * MB, 8 * MB, data.length];
    let last: Response | undefined;
    for (let i = 0; i + 1 < chunks.length; i++) {
      last = await patch(url, chunks[i]!, data.subarray(chunks[i], chunks[i + 1]));
      expect(Number(last.headers.get('upload-offset'))).toBe(chunks[i + 1]);
      if (chunks[i + 1]! < data.length) {
        // A client that lost its connection asks where to go on: exactly where the last chunk ended.
        expect((await head(url)).headers.get('upload-offset')).toBe(String(chunks[i + 1]));
        expect((await staged()).some((k) => k.startsWith(`resumable/${id}`))).toBe(true);
      }
    }
    expect(last!.status).toBe(200);
    const { file } = (await last!.json()) as { file: UploadedFile };
    expect(file).toMatchObject({ size: data.length, name: 'big.bin' });
    expect(file.md5Hash).toBe(createHash('md5').update(data).digest('base64'));
    const stored = await t.app.ctx.storage.get(file.path);
    const chunksRead: Buffer[] = [];
    for await (const c of stored!.body) chunksRead.push(c as Buffer);
    expect(Buffer.concat(chunksRead).equals(data)).toBe(true);

    // Nothing of the upload is left under resumable/; a retrying client still learns it is complete, and its file.
    expect((await staged()).filter((k) => k.startsWith(`resumable/${id}`))).toEqual([]);
    expect((await head(url)).headers.get('upload-offset')).toBe(String(data.length));
    const again = await patch(url, data.length, Buffer.alloc(0));
    expect(again.status).toBe(200);
    expect(((await again.json()) as { file: UploadedFile }).file).toEqual(file);
    const result = await fetch(`${base}${url}/result`, { headers: { cookie: user.cookie } });
    expect(((await result.json()) as { file: UploadedFile }).file).toEqual(file);
  });

  it('cancelling an unfinished upload removes its objects from the bucket', async () => {
    const created = await create(2 * MB, 'cancel.bin');
    const url = created.headers.get('location')!;
    const id = url.split('/').pop()!;
    expect((await patch(url, 0, randomBytes(MB))).status).toBe(204);
    expect((await staged()).filter((k) => k.startsWith(`resumable/${id}`)).length).toBeGreaterThan(0);
    const del = await fetch(`${base}${url}`, { method: 'DELETE', headers: { ...TUS, cookie: user.cookie } });
    expect(del.status).toBe(204);
    expect((await staged()).filter((k) => k.startsWith(`resumable/${id}`))).toEqual([]);
    expect((await head(url)).status).toBe(404);
  });
});
