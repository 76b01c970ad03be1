import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashFile } from './hash-file.ts';

describe('hashFile (the hashing thread)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hash-file-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const md5 = (data: Buffer) => createHash('md5').update(data).digest('base64');

  it('answers the MD5 and size of files read in several chunks, many at once, each its own', async () => {
    const files = await Promise.all(
      [0, 1, 3 * 2 ** 20 + 17, 5 * 2 ** 20].map(async (size, i) => {
        const data = randomBytes(size);
        const file = path.join(dir, `f${i}`);
        await writeFile(file, data);
        return { file, data };
      }),
    );
    const digests = await Promise.all(files.map((f) => hashFile(f.file)));
    digests.forEach((digest, i) => {
      expect(digest).toEqual({ md5: md5(files[i]!.data), size: files[i]!.data.length });
    });
  });

  it('rejects a missing file with its error code, and keeps serving afterwards', async () => {
    await expect(hashFile(path.join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
    const file = path.join(dir, 'after');
    await writeFile(file, 'still here');
    await expect(hashFile(file)).resolves.toEqual({ md5: md5(Buffer.from('still here')), size: 10 });
  });
});
