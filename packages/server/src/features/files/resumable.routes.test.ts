import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { UploadedFile } from '@studybuddy/shared/files';
import { LIMITS } from '@studybuddy/shared/limits';
import { MSG } from '@studybuddy/shared/messages';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { registerUploadTarget, stagingDir, storedKey } from './files.service.ts';
import { reencodeImage } from './image-processing.ts';
import { StagingStore } from './staging-store.ts';
import { ResumableStore } from './resumable-store.ts';
import { scratchDirOf } from './resumable.service.ts';
import { noisePng } from './upload-test-helpers.ts';

const TUS = { 'Tus-Resumable': '1.0.0' };
const b64 = (s: string) => Buffer.from(s).toString('base64');
const metadata = (m: Record<string, string>) =>
  Object.entries(m)
    .map(([k, v]) => `${k} ${b64(v)}`)
    .join(',');

describe('resumable uploads (tus) over real sockets', () => {
  let t: TestApp;
  let base: string;
  let user: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    registerUploadTarget(t.app.ctx, 'test-file', {
      kind: 'file',
      maxBytes: 8 * 1024 * 1024,
      folder: (u) => `users/${u.id}/test`,
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    base = `http://127.0.0.1:${port}`;
    user = await createUser(t.app);
    other = await createUser(t.app);
  });
  afterAll(() => t.close());

  const create = async (cookie: string, size: number, meta: Record<string, string>) =>
    fetch(`${base}/api/resumable`, {
      method: 'POST',
      headers: { ...TUS, cookie, 'Upload-Length': String(size), 'Upload-Metadata': metadata(meta) },
    });
  const head = async (cookie: string, url: string) =>
    fetch(`${base}${url}`, { method: 'HEAD', headers: { ...TUS, cookie } });
  const patch = async (cookie: string, url: string, offset: number, body: Buffer) =>
    fetch(`${base}${url}`, {
      method: 'PATCH',
      headers: {
        ...TUS,
        cookie,
        'Upload-Offset': String(offset),
        'Content-Type': 'application/offset+octet-stream',
      },
      body,
    });

  it('survives a connection cut halfway through a 5 MB upload and resumes without re-sending the first half', async () => {
    const image = await noisePng(1400, 1250);
    expect(image.length).toBeGreaterThan(5_000_000);
    const created = await create(user.cookie, image.length, {
      target: 'profile-image',
      filename: 'big.png',
      filetype: 'image/png',
    });
    expect(created.status).toBe(201);
    const url = created.headers.get('location')!;
    expect(url).toMatch(new RegExp(`^/api/resumable/${user.id}\\.[0-9a-f]{24}$`));

    // Send the headers for the whole file, then only the first half, then cut the connection.
    const half = Math.floor(image.length / 2);
    const { port } = new URL(base);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(
      `PATCH ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\nTus-Resumable: 1.0.0\r\nCookie: ${user.cookie}\r\n` +
        `Upload-Offset: 0\r\nContent-Type: application/offset+octet-stream\r\nContent-Length: ${image.length}\r\n\r\n`,
    );
    await new Promise<void>((resolve) => socket.write(image.subarray(0, half), () => resolve()));
    // Cut once the server has written what arrived (bytes still in its buffers when the connection dies are lost).
    const stagedFile = path.join(stagingDir(t.config), url.split('/').pop()!);
    await expect.poll(async () => (await stat(stagedFile).catch(() => null))?.size, { timeout: 10_000 }).toBe(half);
    socket.destroy();

    // The server keeps what arrived: a HEAD tells the client to resume at (about) the half.
    let offset = -1;
    await expect
      .poll(
        async () => {
          const res = await head(user.cookie, url);
          offset = Number(res.headers.get('upload-offset'));
          return offset;
        },
        { timeout: 10_000 },
      )
      .toBe(half);

    const rest = image.subarray(offset);
    expect(rest.length).toBeLessThanOrEqual(image.length - half);
    const done = await patch(user.cookie, url, offset, rest);
    expect(done.status).toBe(200);
    expect(Number(done.headers.get('upload-offset'))).toBe(image.length);
    const { file } = (await done.json()) as { file: UploadedFile };

    // Assembled correctly: the stored picture is exactly the re-encoding of the original bytes.
    const expected = await reencodeImage(image, 2048);
    const contentSha256 = createHash('sha256').update(expected.data).digest('hex');
    expect(file.path).toBe(`users/${user.id}/profile/${storedKey(contentSha256, user.id, 'big.png')}.jpg`);
    const served = await fetch(`${base}${file.url}`, { headers: { cookie: other.cookie } });
    expect(served.status).toBe(200);
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([1400, 1250]);

    // The staged bytes are gone; a retrying client still learns the upload is complete, and its result.
    const staged = await readdir(stagingDir(t.config));
    expect(staged.some((n) => url.endsWith(n))).toBe(false);
    const again = await head(user.cookie, url);
    expect(again.headers.get('upload-offset')).toBe(String(image.length));
    const result = await fetch(`${base}${url}/result`, { headers: { cookie: user.cookie } });
    expect(((await result.json()) as { file: UploadedFile }).file).toEqual(file);
  });

  it('uploads in chunks that double from 262144 bytes and stores a generic file with its md5', async () => {
    const data = Buffer.alloc(3 * 1024 * 1024 + 5, 7);
    data.write('%PDF-1.4\n', 0);
    const created = await create(user.cookie, data.length, { target: 'test-file', filename: 'notes.pdf' });
    const url = created.headers.get('location')!;
    let offset = 0;
    let chunk: number = LIMITS.chunkStartBytes;
    let last: Response | undefined;
    while (offset < data.length) {
      last = await patch(user.cookie, url, offset, data.subarray(offset, offset + chunk));
      offset = Number(last.headers.get('upload-offset'));
      if (chunk * 2 < LIMITS.chunkMaxBytes) chunk *= 2;
    }
    expect(last!.status).toBe(200);
    const { file } = (await last!.json()) as { file: UploadedFile };
    expect(file).toMatchObject({ contentType: 'application/pdf', size: data.length, name: 'notes.pdf' });
    expect(file.md5Hash).toBe(createHash('md5').update(data).digest('base64'));
  });

  it('keeps each upload to its owner and refuses bad creations with the standard error JSON', async () => {
    const created = await create(user.cookie, 1000, { target: 'test-file', filename: 'a.txt' });
    const url = created.headers.get('location')!;
    expect((await head(other.cookie, url)).status).toBe(404);
    expect((await patch(other.cookie, url, 0, Buffer.alloc(10))).status).toBe(404);
    expect((await head('', url)).status).toBe(401);
    expect((await create('', 1000, { target: 'test-file' })).status).toBe(401);

    const cases: [Record<string, string>, number, number, string][] = [
      [{ target: 'nowhere' }, 1000, 400, MSG.files.unknownTarget],
      [{ target: 'test-file' }, 9 * 1024 * 1024, 413, MSG.files.tooLarge],
      [{ target: 'profile-image', filetype: 'text/plain' }, 1000, 400, MSG.files.notAnImage],
    ];
    for (const [meta, size, status, message] of cases) {
      const res = await create(user.cookie, size, meta);
      expect(res.status).toBe(status);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe(message);
    }
  });

  it("takes the upload id from the path only: a query string naming another student's upload reaches nothing of theirs", async () => {
    const data = Buffer.alloc(300_000, 3);
    const victimCreated = await create(other.cookie, data.length, { target: 'test-file', filename: 'victim.bin' });
    const victimUrl = victimCreated.headers.get('location')!;
    const victimId = victimUrl.split('/').pop()!;
    expect((await patch(other.cookie, victimUrl, 0, data.subarray(0, 100_000))).status).toBe(204);

    // An id of the attacker's own shape that does not exist, with the victim's id in the query string.
    const ghost = `${user.id}.${'0'.repeat(24)}`;
    const tricks = [`/api/resumable/${ghost}?x=/${victimId}`, `/api/resumable/${ghost}?x=/api/resumable/${victimId}`];
    for (const url of tricks) {
      expect((await head(user.cookie, url)).status).toBe(404);
      expect((await patch(user.cookie, url, 100_000, data.subarray(100_000, 200_000))).status).toBe(404);
      const del = await fetch(`${base}${url}`, { method: 'DELETE', headers: { ...TUS, cookie: user.cookie } });
      expect(del.status).toBe(404);
    }
    // The victim's id encoded into the path segment is not an id at all.
    const encoded = `/api/resumable/${user.id}.${'0'.repeat(24)}%2F${victimId}`;
    expect((await head(user.cookie, encoded)).status).toBe(404);

    // With a real upload of the attacker's own, the request only ever concerns that one.
    const mine = await create(user.cookie, 1000, { target: 'test-file', filename: 'mine.bin' });
    const mineUrl = mine.headers.get('location')!;
    const probe = await head(user.cookie, `${mineUrl}?x=/${victimId}`);
    expect(probe.status).toBe(200);
    expect(probe.headers.get('upload-length')).toBe('1000');
    expect(probe.headers.get('upload-offset')).toBe('0');
    const takeOver = await patch(user.cookie, `${mineUrl}?x=/${victimId}`, 100_000, data.subarray(100_000));
    expect(takeOver.status).not.toBe(204);
    const cancel = await fetch(`${base}${mineUrl}?x=/${victimId}`, {
      method: 'DELETE',
      headers: { ...TUS, cookie: user.cookie },
    });
    expect(cancel.status).toBe(204);
    expect((await head(user.cookie, mineUrl)).status).toBe(404);

    // The victim's upload is intact and completes with exactly their bytes.
    const resumed = await head(other.cookie, victimUrl);
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('upload-offset')).toBe('100000');
    const done = await patch(other.cookie, victimUrl, 100_000, data.subarray(100_000));
    expect(done.status).toBe(200);
    const { file } = (await done.json()) as { file: UploadedFile };
    expect(file.md5Hash).toBe(createHash('md5').update(data).digest('base64'));
    expect(file.path.startsWith(`users/${other.id}/`)).toBe(true);
  });

  it('refuses a finished upload whose bytes are not an image, and drops it', async () => {
    const text = Buffer.from('not an image at all\n'.repeat(20_000));
    const created = await create(user.cookie, text.length, {
      target: 'profile-image',
      filename: 'fake.png',
      filetype: 'image/png',
    });
    const url = created.headers.get('location')!;
    const res = await patch(user.cookie, url, 0, text);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(MSG.files.notAnImage);
    expect((await head(user.cookie, url)).status).toBe(404);
  });

  it('sweeps unfinished uploads older than a day, and finished ones kept an hour for their result', async () => {
    const created = await create(user.cookie, 1000, { target: 'test-file', filename: 'old.txt' });
    const url = created.headers.get('location')!;
    const id = url.split('/').pop()!;
    const data = Buffer.alloc(300_000, 5);
    const doneCreated = await create(user.cookie, data.length, { target: 'test-file', filename: 'done.bin' });
    const doneUrl = doneCreated.headers.get('location')!;
    expect((await patch(user.cookie, doneUrl, 0, data)).status).toBe(200);

    const dir = stagingDir(t.config);
    const store = new ResumableStore(new StagingStore(dir), t.app.ctx.db);
    const sweep = () => store.sweep(scratchDirOf(t.config), { warn: () => undefined });
    expect(await sweep()).toBe(0);
    const age = (upload: string, column: 'created_at' | 'finished_at', hours: number) =>
      t.app.ctx.db.execute(
        sql`update resumable_uploads set ${sql.raw(column)} = now() - ${hours} * interval '1 hour' where id = ${upload}`,
      );
    await age(id, 'created_at', 23);
    await age(doneUrl.split('/').pop()!, 'finished_at', 0.5);
    expect(await sweep()).toBe(0);
    expect((await head(user.cookie, url)).status).toBe(200);

    await age(id, 'created_at', 25);
    await age(doneUrl.split('/').pop()!, 'finished_at', 1.5);
    expect(await sweep()).toBe(2);
    expect((await readdir(dir)).some((n) => n.startsWith(id))).toBe(false);
    expect((await head(user.cookie, url)).status).toBe(404);
    expect((await head(user.cookie, doneUrl)).status).toBe(404);
    expect((await fetch(`${base}${doneUrl}/result`, { headers: { cookie: user.cookie } })).status).toBe(404);
  });
});
