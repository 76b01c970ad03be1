import { spawn } from 'node:child_process';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import type { MigrationLevel } from './archive.ts';
import { knownMigrations } from './pglite-dump.ts';

/** How far a PostgreSQL database is migrated (drizzle's bookkeeping table, as for PGlite). */
export async function pgMigrationLevel(db: Db): Promise<MigrationLevel> {
  const result = await db.execute(
    sql`select count(*)::int as n, max(created_at)::text as newest from drizzle.__drizzle_migrations`,
  );
  const row = (result as unknown as { rows: { n: number; newest: string | null }[] }).rows[0];
  const tag = knownMigrations().find((m) => String(m.when) === row?.newest)?.tag ?? null;
  return { applied: Number(row?.n ?? 0), latest: tag };
}

/** Runs a PostgreSQL client program (pg_dump, pg_restore); rejects with its own message on failure. */
export function runPgTool(program: string, args: string[], stdout?: (chunk: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => stdout?.(chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'ENOENT'
          ? new Error(`${program} is not installed: install PostgreSQL's client programs (Debian: postgresql-client)`)
          : err,
      ),
    );
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${program} failed (exit ${code}): ${stderr.trim().slice(0, 500)}`)),
    );
  });
}

/**
 * A consistent dump of the whole database in pg_dump's custom format (pg_dump reads in one repeatable-read
 * transaction, so it holds every transaction committed before it began and nothing after), and its migration level.
 */
export async function dumpPostgres(databaseUrl: string, db: Db): Promise<{ dump: Buffer; migrations: MigrationLevel }> {
  const migrations = await pgMigrationLevel(db);
  const parts: Buffer[] = [];
  await runPgTool('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--dbname=${databaseUrl}`], (c) =>
    parts.push(c),
  );
  return { dump: Buffer.concat(parts), migrations };
}
