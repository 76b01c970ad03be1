import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { constants } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { hashFile } from './hash-file.ts';
import {
  assertSafePath,
  folderOf,
  newObjectMeta,
  type PutOptions,
  type Storage,
  type StoredObjectMeta,
} from './storage.ts';

const META_SUFFIX = '.meta.json';
const TMP_SUFFIX = '.tmp';

/** Files under `root/objects`, metadata beside each file as JSON. Writes go through a temp file and a rename. */
export function createFsStorage(root: string): Storage {
  const objects = path.join(root, 'objects');
  const fileOf = (fullPath: string) => {
    assertSafePath(fullPath);
    if (fullPath.endsWith(META_SUFFIX) || fullPath.endsWith(TMP_SUFFIX) || fullPath.includes('\\')) {
      throw new Error(`invalid object path: ${fullPath}`);
    }
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
  const tmpName = (file: string) => `${file}.${randomBytes(6).toString('hex')}${TMP_SUFFIX}`;

  /** Moves a written temp file into place and writes its metadata. */
  const commit = async (
    fullPath: string,
    file: string,
    tmp: string,
    size: number,
    md5: string,
    options: PutOptions,
  ) => {
    const previous = await readMeta(file);
    const meta = newObjectMeta('local', fullPath, { size, md5Hash: md5, created: previous?.timeCreated }, options);
    await rename(tmp, file);
    const metaTmp = tmpName(file);
    await writeFile(metaTmp, JSON.stringify(meta));
    await rename(metaTmp, file + META_SUFFIX);
    return meta;
  };

  const walk = async (dir: string, rel: string, out: string[]) => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return;
      throw err;
    }
    for (const e of entries) {
      if (e.isDirectory()) await walk(path.join(dir, e.name), `${rel}/${e.name}`, out);
      else if (e.name.endsWith(META_SUFFIX)) out.push(`${rel}/${e.name.slice(0, -META_SUFFIX.length)}`);
    }
  };

  return {
    driver: 'fs',
    async put(fullPath, data, options) {
      const file = fileOf(fullPath);
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = tmpName(file);
      await writeFile(tmp, data);
      return commit(fullPath, file, tmp, data.length, createHash('md5').update(data).digest('base64'), options);
    },
    async putFile(fullPath, sourceFile, options) {
      const file = fileOf(fullPath);
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = tmpName(file);
      // The kernel copies the file in one call while the hashing thread reads it: neither passes its bytes
      // through the event loop. Both have ended before a failure removes the copy.
      const [copied, hashed] = await Promise.allSettled([copyFile(sourceFile, tmp), hashFile(sourceFile)]);
      if (copied.status === 'rejected' || hashed.status === 'rejected') {
        await rm(tmp, { force: true });
        throw copied.status === 'rejected' ? copied.reason : (hashed as PromiseRejectedResult).reason;
      }
      return commit(fullPath, file, tmp, hashed.value.size, hashed.value.md5, options);
    },
    localFile: fileOf,
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
      await rm(file + META_SUFFIX, { force: true });
      await rm(file, { force: true });
    },
    async deletePrefix(prefix) {
      const dir = path.join(objects, ...folderOf(prefix).split('/'));
      const info = await stat(dir).catch(() => null);
      if (info?.isDirectory()) await rm(dir, { recursive: true, force: true });
    },
    async list(prefix) {
      const folder = folderOf(prefix);
      const out: string[] = [];
      await walk(path.join(objects, ...folder.split('/')), folder, out);
      return out.sort();
    },
    async check() {
      await mkdir(objects, { recursive: true });
      await access(objects, constants.W_OK);
    },
  };
}
