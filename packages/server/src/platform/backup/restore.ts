import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { findRunningServer } from './admin-access.ts';
import pg from 'pg';
import { DB_ENTRY, PG_ENTRY, readArchive, SECRET_ENTRY, type BackupManifest } from './archive.ts';
import { runPgTool } from './pg-dump.ts';
import { knownMigrations, migrationLevel } from './pglite-dump.ts';

export class RestoreError extends Error {}

/** What a restore replaces in the data dir (the outbox of sent mail stays). */
const REPLACED = ['db', 'files', 'secret.key', 'uploads', 'server.json'];

async function isEmptyDir(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw err;
  }
}

function checkLevel(manifest: BackupManifest): void {
  const known = knownMigrations().length;
  if (manifest.database.migrations.applied > known) {
    throw new RestoreError(
      `The backup's database has ${manifest.database.migrations.applied} migrations; this version of StudyBuddy ` +
        `knows ${known}. Restore it with the version that made it (or newer).`,
    );
  }
}

/** Tables in the database's public and drizzle schemas: a restore goes into an empty database only. */
async function tablesIn(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch (err) {
    throw new RestoreError(`Cannot connect to DATABASE_URL: ${(err as Error).message}`);
  }
  try {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_tables where schemaname in ('public', 'drizzle')`,
    );
    return rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

/**
 * Restores a backup of a PostgreSQL installation (a scheduled backup made with DATABASE_URL) into the empty
 * database `databaseUrl` with pg_restore; its secret key, and its stored files when it has them (STORAGE=fs), go to
 * `dataDir` as for the embedded database. Refuses a database that has tables, and a backup of the embedded one.
 */
export async function restorePostgres(opts: {
  archive: string;
  databaseUrl: string;
  dataDir: string;
}): Promise<BackupManifest> {
  const { archive, databaseUrl, dataDir } = opts;
  if (!existsSync(archive)) throw new RestoreError(`There is no archive at ${archive}.`);
  const server = await findRunningServer(dataDir);
  if (server) throw new RestoreError(`A server (pid ${server.pid}) is using ${dataDir}: stop it before restoring.`);
  if ((await tablesIn(databaseUrl)) > 0) {
    throw new RestoreError(
      'The database DATABASE_URL names is not empty. Restore into a new database (createdb) and point the servers ' +
        'at it, or drop and create this one first.',
    );
  }
  await mkdir(dataDir, { recursive: true });
  const staging = path.join(dataDir, `.restore-${randomBytes(6).toString('hex')}`);
  try {
    const manifest = await readArchive(archive, { extractTo: staging }).catch((err: Error) => {
      throw new RestoreError(`The archive was not restored: ${err.message}`);
    });
    if (manifest.database.kind !== 'postgres') {
      throw new RestoreError(
        'This backup holds the embedded database: restore it without DATABASE_URL (into a data dir).',
      );
    }
    checkLevel(manifest);
    await runPgTool('pg_restore', [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      `--dbname=${databaseUrl}`,
      path.join(staging, PG_ENTRY),
    ]).catch((err: Error) => {
      throw new RestoreError(`pg_restore did not finish: ${err.message}`);
    });
    if (existsSync(path.join(staging, 'files'))) {
      await rm(path.join(dataDir, 'files'), { recursive: true, force: true });
      await rename(path.join(staging, 'files'), path.join(dataDir, 'files'));
    }
    await rm(path.join(dataDir, 'secret.key'), { force: true });
    await rename(path.join(staging, SECRET_ENTRY), path.join(dataDir, 'secret.key'));
    await chmod(path.join(dataDir, 'secret.key'), 0o600);
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * Restores a backup archive into `dataDir`: checks every entry against the manifest, loads the database with
 * PGlite, then moves database, files and secret key into place. Refuses a non-empty dir unless `force`, and a
 * dir a running server uses. Nothing in `dataDir` changes until the archive has been checked and loaded.
 */
export async function restoreArchive(opts: {
  archive: string;
  dataDir: string;
  force?: boolean;
}): Promise<BackupManifest> {
  const { archive, dataDir } = opts;
  if (!existsSync(archive)) throw new RestoreError(`There is no archive at ${archive}.`);
  const server = await findRunningServer(dataDir);
  if (server) throw new RestoreError(`A server (pid ${server.pid}) is using ${dataDir}: stop it before restoring.`);
  if (!opts.force && !(await isEmptyDir(dataDir))) {
    throw new RestoreError(
      `${dataDir} is not empty. A restore replaces its database, files and secret key: add --force to do that, ` +
        'or restore into a new data dir.',
    );
  }

  const created = !existsSync(dataDir);
  await mkdir(dataDir, { recursive: true });
  const staging = path.join(dataDir, `.restore-${randomBytes(6).toString('hex')}`);
  let done = false;
  try {
    const manifest = await readArchive(archive, { extractTo: staging }).catch((err: Error) => {
      throw new RestoreError(`The archive was not restored: ${err.message}`);
    });
    if (manifest.database.kind === 'postgres') {
      throw new RestoreError(
        'This backup holds a PostgreSQL database: set DATABASE_URL to an empty database and restore again.',
      );
    }
    checkLevel(manifest);

    const dump = await readFile(path.join(staging, DB_ENTRY));
    const client = await PGlite.create(path.join(staging, 'db'), { loadDataDir: new Blob([dump]) });
    try {
      const level = await migrationLevel(client);
      if (level.applied !== manifest.database.migrations.applied) {
        throw new RestoreError('The restored database does not match the manifest (migration level differs).');
      }
    } finally {
      await client.close();
    }
    await rm(path.join(staging, DB_ENTRY));

    for (const name of REPLACED) await rm(path.join(dataDir, name), { recursive: true, force: true });
    await rename(path.join(staging, 'db'), path.join(dataDir, 'db'));
    if (existsSync(path.join(staging, 'files'))) await rename(path.join(staging, 'files'), path.join(dataDir, 'files'));
    await rename(path.join(staging, SECRET_ENTRY), path.join(dataDir, 'secret.key'));
    await chmod(path.join(dataDir, 'secret.key'), 0o600);
    done = true;
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
    if (!done && created) await rm(dataDir, { recursive: true, force: true });
  }
}
