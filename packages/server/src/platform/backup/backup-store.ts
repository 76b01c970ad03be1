import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Storage } from '../storage/storage.ts';

/** Scheduled backups are named for the time they were due (UTC), so instances agree on one name per run. */
const NAME = /^studybuddy-backup-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})Z\.tar\.gz$/;

export const backupName = (due: Date) =>
  `studybuddy-backup-${due.toISOString().slice(0, 19).replace(/:/g, '-')}Z.tar.gz`;

/** The time a scheduled backup was due, from its name; null for any other file. */
export function dueOf(name: string): Date | null {
  const m = NAME.exec(name);
  return m ? new Date(`${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`) : null;
}

export interface StoredBackup {
  name: string;
  /** When it was due (its name). */
  due: Date;
  /** When it was stored. */
  written: Date;
  bytes: number;
}

/** Where scheduled backups go: DATA_DIR/backups, or the S3 bucket's `backups/` folder with STORAGE=s3. */
export interface BackupStore {
  /** Where, for log lines and messages. */
  readonly where: string;
  /** Scheduled backups (other files are ignored), oldest first. */
  list(): Promise<StoredBackup[]>;
  /** Stores the local file `source` as `name`, whole or not at all. */
  put(name: string, source: string): Promise<void>;
  delete(name: string): Promise<void>;
  /** Copies `name` to the local file `target`; false when there is no such backup. */
  fetch(name: string, target: string): Promise<boolean>;
  /** A folder on local disk where an archive may be written before `put` (same file system for the fs store). */
  readonly staging: string;
}

const byDue = (a: StoredBackup, b: StoredBackup) => a.due.getTime() - b.due.getTime();

export function fsBackupStore(dir: string): BackupStore {
  return {
    where: dir,
    staging: dir,
    async list() {
      const names = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return [];
        throw err;
      });
      const out: StoredBackup[] = [];
      for (const name of names) {
        const due = dueOf(name);
        if (!due) continue;
        const info = await stat(path.join(dir, name)).catch(() => null);
        if (info?.isFile()) out.push({ name, due, written: info.mtime, bytes: info.size });
      }
      return out.sort(byDue);
    },
    async put(name, source) {
      await mkdir(dir, { recursive: true });
      await rename(source, path.join(dir, name));
    },
    delete: (name) => rm(path.join(dir, name), { force: true }),
    async fetch(name, target) {
      if (!dueOf(name)) return false;
      const file = path.join(dir, name);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) return false;
      await pipeline(createReadStream(file), createWriteStream(target, { mode: 0o600 }));
      return true;
    },
  };
}

const PREFIX = 'backups';

/** In the bucket the files are in, under `backups/` (stored files live under other folders). */
export function s3BackupStore(storage: Storage, bucket: string, staging: string): BackupStore {
  return {
    where: `s3://${bucket}/${PREFIX}/`,
    staging,
    async list() {
      const out: StoredBackup[] = [];
      for (const full of await storage.list(PREFIX)) {
        const name = full.slice(PREFIX.length + 1);
        const due = dueOf(name);
        if (!due) continue;
        const meta = await storage.head(full);
        if (meta) out.push({ name, due, written: new Date(meta.updated), bytes: meta.size });
      }
      return out.sort(byDue);
    },
    async put(name, source) {
      await storage.putFile(`${PREFIX}/${name}`, source, { contentType: 'application/gzip' });
    },
    delete: (name) => storage.delete(`${PREFIX}/${name}`),
    async fetch(name, target) {
      if (!dueOf(name)) return false;
      const got = await storage.get(`${PREFIX}/${name}`);
      if (!got) return false;
      await pipeline(got.body, createWriteStream(target, { mode: 0o600 }));
      return true;
    },
  };
}
