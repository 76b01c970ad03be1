import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import type { DataStore } from '@tus/server';

/** Unfinished uploads are kept a day; a finished upload's answer an hour (for a client whose last response was lost). */
export const STAGING_MS = 24 * 60 * 60 * 1000;
export const RESULT_MS = 60 * 60 * 1000;

/** Where the bytes of resumable uploads wait until they are complete: local disk, or the S3 bucket. */
export interface StagingBackend extends DataStore {
  /** A file on this machine with the complete upload's bytes; `release` removes it if it was a copy. */
  localCopy(id: string, scratchDir: string): Promise<{ file: string; release(): Promise<void> }>;
  /** Removes all of one upload (finished or not); nothing to remove is no error. */
  discard(id: string): Promise<void>;
  /** Removes leftovers no upload record names any more (a crash between the two); how many. */
  sweepOrphans(now?: number): Promise<number>;
}

/**
 * Staging on this instance's disk (`DATA_DIR/uploads`, STORAGE=fs): `<id>` holds the bytes, `<id>.json` tus's info.
 * Only this instance can resume these uploads: disk storage is for a single instance.
 */
export class StagingStore extends FileStore implements StagingBackend {
  constructor(directory: string) {
    super({ directory, expirationPeriodInMilliseconds: STAGING_MS });
  }

  async localCopy(id: string) {
    return { file: path.join(this.directory, id), release: async () => undefined };
  }

  async discard(id: string): Promise<void> {
    await Promise.all([id, `${id}.json`].map((n) => rm(path.join(this.directory, n), { force: true })));
  }

  /** Files older than any upload may live (a day and an hour). */
  sweepOrphans(now = Date.now()): Promise<number> {
    return removeFilesOlderThan(this.directory, STAGING_MS + RESULT_MS, now);
  }
}

/** Removes the files directly in `dir` last written more than `ageMs` ago; how many. */
export async function removeFilesOlderThan(dir: string, ageMs: number, now = Date.now()): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const info = await stat(path.join(dir, name)).catch(() => null);
    if (info?.isFile() && now - info.mtimeMs > ageMs) {
      await rm(path.join(dir, name), { force: true });
      removed++;
    }
  }
  return removed;
}
