import { randomBytes } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import type { AppContext } from '../context.ts';
import { createArchive, type MigrationLevel } from './archive.ts';
import { dumpPostgres } from './pg-dump.ts';
import { dumpPglite } from './pglite-dump.ts';
import { linkSnapshot } from './snapshot.ts';

const SNAPSHOT_PREFIX = 'backup-snapshot-';

export function pgliteOf(ctx: AppContext): PGlite | null {
  const client = (ctx.db as unknown as { $client?: unknown }).$client;
  return ctx.database.kind === 'pglite' && client instanceof PGlite ? client : null;
}

/** A consistent copy of the app's database. */
export type Dumper = () => Promise<{ dump: Buffer; migrations: MigrationLevel; kind: 'pglite' | 'postgres' }>;

/** PGlite's data dir image, or pg_dump of DATABASE_URL. */
export function dumperOf(ctx: AppContext): Dumper {
  const client = pgliteOf(ctx);
  if (client) return async () => ({ ...(await dumpPglite(client)), kind: 'pglite' });
  const url = ctx.config.databaseUrl;
  if (!url) throw new Error('the app has neither an embedded database nor DATABASE_URL');
  return async () => ({ ...(await dumpPostgres(url, ctx.db)), kind: 'postgres' });
}

/** One backup at a time per app: the on-demand route (npm run backup) and the schedule share this. */
const busy = new WeakSet<AppContext>();

export const backupRunning = (ctx: AppContext) => busy.has(ctx);

export interface ServerArchive {
  /** The .tar.gz bytes; read it to the end (or destroy it), then call `release`. */
  archive: Readable;
  started: number;
  /** Removes the file snapshot and lets the next backup run. Idempotent. */
  release(): Promise<void>;
}

/**
 * Starts a backup archive of the running installation: the database (`dumperOf`), the stored files (with
 * STORAGE=fs) and the secret key, consistent while the server keeps serving. Answers null when another backup of
 * this app is being made.
 */
export async function startServerArchive(ctx: AppContext, dumper: Dumper): Promise<ServerArchive | null> {
  if (busy.has(ctx)) return null;
  busy.add(ctx);
  const { dataDir } = ctx.config;
  const snapshot = path.join(dataDir, SNAPSHOT_PREFIX + randomBytes(6).toString('hex'));
  let released: Promise<void> | undefined;
  const release = () =>
    (released ??= rm(snapshot, { recursive: true, force: true }).finally(() => {
      busy.delete(ctx);
    }));
  try {
    // Snapshots a crash left behind (only one backup runs at a time).
    for (const name of await readdir(dataDir)) {
      if (name.startsWith(SNAPSHOT_PREFIX)) await rm(path.join(dataDir, name), { recursive: true, force: true });
    }
    const started = Date.now();
    const filesDir = ctx.storage.driver === 'fs' ? path.join(dataDir, 'files') : undefined;
    // Links before the dump keep files the dump may reference even if they are deleted right after it; links
    // after it add the files written meanwhile. Files are content-addressed, so an extra file is harmless.
    if (filesDir) await linkSnapshot(filesDir, snapshot);
    const { dump, migrations, kind } = await dumper();
    if (filesDir) await linkSnapshot(filesDir, snapshot);
    const archive = createArchive({
      secretKey: ctx.config.secretKey,
      dbDump: dump,
      dbKind: kind,
      migrations,
      madeBy: 'server',
      storage: ctx.storage.driver,
      filesRoot: filesDir ? snapshot : undefined,
    });
    return { archive, started, release };
  } catch (err) {
    await release();
    throw err;
  }
}
