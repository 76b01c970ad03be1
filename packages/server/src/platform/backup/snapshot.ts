import { copyFile, link, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { listFiles } from './archive.ts';

/**
 * Hard-links every file under `from` into `to` (same tree), keeping what is there already. Stored files are
 * replaced by rename and never written in place, so a link keeps the bytes as they were even when the server
 * deletes or replaces the file afterwards. Falls back to copying where links are not possible.
 */
export async function linkSnapshot(from: string, to: string): Promise<number> {
  let added = 0;
  for (const rel of await listFiles(from)) {
    const source = path.join(from, ...rel.split('/'));
    const target = path.join(to, ...rel.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await link(source, target);
      added++;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || code === 'ENOENT') continue; // kept from the first pass, or deleted meanwhile
      if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP') throw err;
      await copyFile(source, target).then(
        () => added++,
        (copyErr: NodeJS.ErrnoException) => {
          if (copyErr.code !== 'ENOENT') throw copyErr;
        },
      );
    }
  }
  return added;
}
