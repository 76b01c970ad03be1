import { createWriteStream, existsSync } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { PGlite } from '@electric-sql/pglite';
import { adminToken, BACKUP_ROUTE, findRunningServer, readSecretKey } from './admin-access.ts';
import { createArchive, readArchive, type BackupManifest } from './archive.ts';
import { dumpPglite } from './pglite-dump.ts';

export class BackupError extends Error {}

export interface BackupResult {
  file: string;
  bytes: number;
  ms: number;
  manifest: BackupManifest;
  /** The pid of the server that made the dump, or null when the command opened the database itself. */
  serverPid: number | null;
}

type Env = Record<string, string | undefined>;

async function fromServer(url: string, pid: number, secretKey: string, partial: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch(url + BACKUP_ROUTE, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken(secretKey)}` },
    });
  } catch (err) {
    throw new BackupError(
      `A server (pid ${pid}) uses this data dir but does not answer at ${url} (${(err as Error).message}). ` +
        'Wait until it has started, or stop it and run the backup again.',
    );
  }
  if (!res.ok || !res.body) {
    const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new BackupError(`The server refused the backup (${res.status}): ${body?.error?.message ?? res.statusText}`);
  }
  await pipeline(Readable.fromWeb(res.body as WebReadableStream), createWriteStream(partial, { mode: 0o600 }));
}

async function offline(dataDir: string, secretKey: string, env: Env, partial: string): Promise<void> {
  const dbDir = path.join(dataDir, 'db');
  if (!existsSync(path.join(dbDir, 'PG_VERSION'))) throw new BackupError(`There is no database in ${dbDir}.`);
  const client = await PGlite.create(dbDir);
  let dumped;
  try {
    dumped = await dumpPglite(client);
  } finally {
    await client.close();
  }
  const s3 = env.STORAGE?.trim() === 's3';
  const archive = createArchive({
    secretKey,
    dbDump: dumped.dump,
    migrations: dumped.migrations,
    madeBy: 'offline',
    storage: s3 ? 's3' : 'fs',
    filesRoot: s3 ? undefined : path.join(dataDir, 'files'),
  });
  await pipeline(archive, createWriteStream(partial, { mode: 0o600 }));
}

/**
 * Writes a backup of the embedded installation in `dataDir` to `out`: through the running server when there is
 * one (PGlite is single-process), else by opening the database here. The archive is read back and checked
 * against its manifest before it takes its final name.
 */
export async function backupDataDir(opts: { dataDir: string; out: string; env?: Env }): Promise<BackupResult> {
  const env = opts.env ?? process.env;
  const started = Date.now();
  if (env.DATABASE_URL?.trim()) {
    throw new BackupError(
      'DATABASE_URL is set: this installation uses PostgreSQL. Back it up with pg_dump and copy the files ' +
        '(README, Back-up and restore); npm run backup covers the embedded database.',
    );
  }
  const secretKey = readSecretKey(opts.dataDir, env);
  if (!secretKey) {
    throw new BackupError(
      `No secret key: ${path.join(opts.dataDir, 'secret.key')} does not exist and SECRET_KEY is not set ` +
        '(set DATA_DIR, and SECRET_KEY when the server runs with one).',
    );
  }
  const partial = `${opts.out}.partial`;
  try {
    const server = await findRunningServer(opts.dataDir);
    if (server) await fromServer(server.url, server.pid, secretKey, partial);
    else await offline(opts.dataDir, secretKey, env, partial);
    const manifest = await readArchive(partial).catch((err: Error) => {
      throw new BackupError(`The archive written does not check out: ${err.message}`);
    });
    await rename(partial, opts.out);
    const { size } = await stat(opts.out);
    return { file: opts.out, bytes: size, ms: Date.now() - started, manifest, serverPid: server?.pid ?? null };
  } finally {
    await rm(partial, { force: true });
  }
}
