import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rm, writeFile, rename, access } from 'node:fs/promises';
import { constants } from 'node:fs';
import path from 'node:path';
import { assertSafePath, type PutOptions, type Storage, type StoredObjectMeta } from './storage.ts';

const META_SUFFIX = '.meta.json';

/** Files under `root/objects`, metadata beside each file as JSON. Writes go through a temp file and a rename. */
export function createFsStorage(root: string): Storage {
  const objects = path.join(root, 'objects');
  const fileOf = (fullPath: string) => {
    assertSafePath(fullPath);
    return path.join(objects, ...fullPath.split('/'));
  };
  const readMeta = async (file: string): Promise<StoredObjectMeta | null> => {
    try {
      return JSON.parse(await readFile(file + META_SUFFIX, 'utf8')) as StoredObjectMeta;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  };
  return {
    driver: 'fs',
    async put(fullPath: string, data: Buffer, options: PutOptions) {
      const file = fileOf(fullPath);
      await mkdir(path.dirname(file), { recursive: true });
      const previous = await readMeta(file);
      const now = new Date().toISOString();
      const meta: StoredObjectMeta = {
        bucket: 'local',
        fullPath,
        name: path.posix.basename(fullPath),
        size: data.length,
        contentType: options.contentType,
        timeCreated: previous?.timeCreated ?? now,
        updated: now,
        md5Hash: createHash('md5').update(data).digest('base64'),
        cacheControl: options.cacheControl,
        contentDisposition: options.contentDisposition,
        customMetadata: options.customMetadata ?? {},
      };
      const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(tmp, data);
      await rename(tmp, file);
      await writeFile(file + META_SUFFIX, JSON.stringify(meta));
      return meta;
    },
    async head(fullPath) {
      return readMeta(fileOf(fullPath));
    },
    async get(fullPath) {
      const file = fileOf(fullPath);
      const meta = await readMeta(file);
      if (!meta) return null;
      return { meta, body: createReadStream(file) };
    },
    async delete(fullPath) {
      const file = fileOf(fullPath);
      await rm(file, { force: true });
      await rm(file + META_SUFFIX, { force: true });
    },
    async deletePrefix(prefix) {
      const clean = prefix.replace(/\/+$/, '');
      assertSafePath(clean);
      await rm(path.join(objects, ...clean.split('/')), { recursive: true, force: true });
    },
    async check() {
      await mkdir(objects, { recursive: true });
      await access(objects, constants.W_OK);
    },
  };
}
