import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from './storage.ts';

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const md5 = (data: Buffer) => createHash('md5').update(data).digest('base64');

/** The behaviour every storage driver must have; each driver's test file runs it against a real backend. */
/** `listPage`: how many keys one list request of the backend returns (none: it has no pages). */
export function describeStorageDriver(
  name: string,
  open: () => Promise<{ storage: Storage; close(): Promise<void>; listPage?: number }>,
) {
  describe(`storage driver: ${name}`, () => {
    let storage: Storage;
    let close: () => Promise<void>;
    let listPage: number | undefined;
    let scratch: string;
    beforeAll(async () => {
      ({ storage, close, listPage } = await open());
      scratch = await mkdtemp(path.join(tmpdir(), 'sb-storage-suite-'));
    });
    afterAll(async () => {
      await close();
      await rm(scratch, { recursive: true, force: true });
    });

    it('is writable', async () => {
      await expect(storage.check()).resolves.toBeUndefined();
    });

    it('stores bytes with the metadata of requirements §3 and reads them back unchanged', async () => {
      const data = randomBytes(70_000);
      const custom = { uploadedBy: 'u1', 'Original-Name': 'Café photo.jpg' };
      const put = await storage.put('meta/one/photo.jpg', data, {
        contentType: 'image/jpeg',
        cacheControl: 'private, max-age=31536000, immutable',
        contentDisposition: 'inline',
        contentLanguage: 'en',
        customMetadata: custom,
      });
      expect(put).toMatchObject({
        fullPath: 'meta/one/photo.jpg',
        name: 'photo.jpg',
        size: data.length,
        contentType: 'image/jpeg',
        md5Hash: md5(data),
        cacheControl: 'private, max-age=31536000, immutable',
        contentDisposition: 'inline',
        contentLanguage: 'en',
        customMetadata: custom,
      });
      expect(put.bucket).toEqual(expect.any(String));
      expect(Date.parse(put.timeCreated)).not.toBeNaN();
      expect(put.updated).toBe(put.timeCreated);

      const head = await storage.head('meta/one/photo.jpg');
      expect(head).toEqual({ ...put, contentEncoding: head?.contentEncoding });
      const got = await storage.get('meta/one/photo.jpg');
      expect(got?.meta).toEqual(head);
      expect((await readAll(got!.body)).equals(data)).toBe(true);
    });

    it('keeps timeCreated and moves updated when an object is overwritten', async () => {
      const first = await storage.put('meta/overwrite.txt', Buffer.from('first'), { contentType: 'text/plain' });
      await new Promise((r) => setTimeout(r, 15));
      const second = await storage.put('meta/overwrite.txt', Buffer.from('second, longer'), {
        contentType: 'text/plain',
      });
      expect(second.timeCreated).toBe(first.timeCreated);
      expect(Date.parse(second.updated)).toBeGreaterThan(Date.parse(first.updated));
      expect(second.size).toBe(14);
      const got = await storage.get('meta/overwrite.txt');
      expect((await readAll(got!.body)).toString()).toBe('second, longer');
      expect(got!.meta.md5Hash).toBe(md5(Buffer.from('second, longer')));
    });

    it('streams a large local file in (putFile) with the right size and md5', async () => {
      const data = randomBytes(3 * 1024 * 1024 + 17);
      const source = path.join(scratch, 'big.bin');
      await writeFile(source, data);
      const meta = await storage.putFile('big/file.bin', source, {
        contentType: 'application/octet-stream',
        customMetadata: { kind: 'big' },
      });
      expect(meta).toMatchObject({ size: data.length, md5Hash: md5(data), customMetadata: { kind: 'big' } });
      const got = await storage.get('big/file.bin');
      expect(md5(await readAll(got!.body))).toBe(md5(data));
    });

    it('refuses putFile of a missing source with its error code and stores nothing', async () => {
      await expect(
        storage.putFile('gone/file.bin', path.join(scratch, 'no-such-file'), { contentType: 'text/plain' }),
      ).rejects.toMatchObject({ code: 'ENOENT' });
      expect(await storage.head('gone/file.bin')).toBeNull();
      expect(await storage.list('gone/')).toEqual([]);
    });

    it('answers null for a missing object and deletes idempotently', async () => {
      expect(await storage.head('missing/nothing.txt')).toBeNull();
      expect(await storage.get('missing/nothing.txt')).toBeNull();
      await storage.put('del/a.txt', Buffer.from('a'), { contentType: 'text/plain' });
      await storage.delete('del/a.txt');
      expect(await storage.head('del/a.txt')).toBeNull();
      await expect(storage.delete('del/a.txt')).resolves.toBeUndefined();
    });

    it('lists and deletes by folder, never by bare string prefix', async () => {
      const opts = { contentType: 'text/plain' };
      await storage.put('users/u1/a.txt', Buffer.from('1'), opts);
      await storage.put('users/u1/images/b.jpg', Buffer.from('2'), opts);
      await storage.put('users/u10/c.txt', Buffer.from('3'), opts);
      await storage.put('users/u1x', Buffer.from('4'), opts);
      expect(await storage.list('users/u1')).toEqual(['users/u1/a.txt', 'users/u1/images/b.jpg']);
      expect(await storage.list('users/u1/')).toEqual(['users/u1/a.txt', 'users/u1/images/b.jpg']);
      expect(await storage.list('users/nobody')).toEqual([]);

      await storage.deletePrefix('users/u1');
      expect(await storage.list('users/u1')).toEqual([]);
      expect(await storage.head('users/u1/images/b.jpg')).toBeNull();
      expect(await storage.list('users/u10')).toEqual(['users/u10/c.txt']);
      expect(await storage.head('users/u1x')).not.toBeNull();
      await expect(storage.deletePrefix('users/nobody')).resolves.toBeUndefined();
    });

    it('lists more objects than one page of the backend', async () => {
      const opts = { contentType: 'text/plain' };
      const names = Array.from(
        { length: 2 * (listPage ?? 20) + 5 },
        (_, i) => `many/f${String(i).padStart(4, '0')}.txt`,
      );
      for (let i = 0; i < names.length; i += 50) {
        await Promise.all(names.slice(i, i + 50).map((n) => storage.put(n, Buffer.from(n), opts)));
      }
      expect(await storage.list('many')).toEqual(names);
      await storage.deletePrefix('many');
      expect(await storage.list('many')).toEqual([]);
    });

    it.each(['', '/abs.txt', 'a/../b.txt', 'a//b.txt', './a.txt', 'a/'])('refuses the unsafe path %j', async (p) => {
      await expect(storage.put(p, Buffer.from('x'), { contentType: 'text/plain' })).rejects.toThrow(/invalid/);
      await expect(storage.head(p)).rejects.toThrow(/invalid/);
    });
  });
}
