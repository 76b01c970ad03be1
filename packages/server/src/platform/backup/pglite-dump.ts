import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { migrationsFolder } from '../../db/migrations-folder.ts';
import type { MigrationLevel } from './archive.ts';

const journalFile = path.join(migrationsFolder, 'meta', '_journal.json');

interface Journal {
  entries: { idx: number; when: number; tag: string }[];
}

/** The migrations this version of the server knows, oldest first. */
export function knownMigrations(): Journal['entries'] {
  return (JSON.parse(readFileSync(journalFile, 'utf8')) as Journal).entries;
}

/** How far the database is migrated (drizzle's bookkeeping table; its created_at is the journal's `when`). */
export async function migrationLevel(client: PGlite): Promise<MigrationLevel> {
  const exists = await client.query<{ t: string | null }>(`select to_regclass('drizzle.__drizzle_migrations') as t`);
  if (!exists.rows[0]?.t) return { applied: 0, latest: null };
  const { rows } = await client.query<{ n: number; newest: string | null }>(
    'select count(*)::int as n, max(created_at)::text as newest from drizzle.__drizzle_migrations',
  );
  const newest = rows[0]?.newest;
  const tag = knownMigrations().find((m) => String(m.when) === newest)?.tag ?? null;
  return { applied: rows[0]?.n ?? 0, latest: tag };
}

/**
 * A consistent copy of a PGlite database: a checkpoint (so the copy needs little WAL replay), then the data dir
 * as a tar taken while PGlite runs no query or transaction. It reads every file synchronously, so this is a
 * point-in-time image; transactions committed before it are in, later ones are not.
 */
export async function dumpPglite(client: PGlite): Promise<{ dump: Buffer; migrations: MigrationLevel }> {
  const migrations = await migrationLevel(client);
  await client.exec('CHECKPOINT');
  const blob = await client._runExclusiveTransaction(() => client.dumpDataDir('none'));
  return { dump: Buffer.from(await blob.arrayBuffer()), migrations };
}
