import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { findRunningServer } from './admin-access.ts';
import { DB_ENTRY, readArchive, SECRET_ENTRY, type BackupManifest } from './archive.ts';
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
    const known = knownMigrations().length;
    if (manifest.database.migrations.applied > known) {
      throw new RestoreError(
        `The backup's database has ${manifest.database.migrations.applied} migrations; this version of StudyBuddy ` +
          `knows ${known}. Restore it with the version that made it (or newer).`,
      );
    }

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
