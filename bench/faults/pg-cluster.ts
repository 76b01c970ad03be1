// A PostgreSQL cluster the fault bench owns: initdb into a temporary folder with Debian's binaries, on a loopback
// port of its own, so the bench can restart it and end its backends without touching the shared server on 5432.
// Run as the `postgres` user when the bench runs as root (PostgreSQL refuses to run as root).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, onCleanup } from '../chat/util.ts';

export interface PgCluster {
  port: number;
  /** The postgres database of the cluster (superuser, trust). */
  url: string;
  /** `pg_ctl restart -m fast`: returns once the cluster answers again; the time it was away, in ms. */
  restart(): Promise<{ awayMs: number }>;
  /** Ends every other client backend (pg_terminate_backend); how many. */
  terminateBackends(): Promise<number>;
  /** Client backends connected to `database` now. */
  backendsOf(database: string): Promise<number>;
  close(): Promise<void>;
}

/** Debian's newest PostgreSQL binaries (/usr/lib/postgresql/<version>/bin), or PG_BIN. */
export function postgresBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
  const bin = versions.map((v) => path.join(base, v, 'bin')).find((b) => existsSync(path.join(b, 'pg_ctl')));
  if (!bin)
    throw new Error('no PostgreSQL binaries under /usr/lib/postgresql (apt-get install postgresql), or set PG_BIN');
  return bin;
}

const asRoot = process.getuid?.() === 0;

function pgRun(bin: string, tool: string, args: string[]): string {
  const file = path.join(bin, tool);
  return asRoot
    ? execFileSync('runuser', ['-u', 'postgres', '--', file, ...args], { encoding: 'utf8', stdio: 'pipe' })
    : execFileSync(file, args, { encoding: 'utf8', stdio: 'pipe' });
}

async function answers(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await c.connect();
    await c.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

export async function startPgCluster(): Promise<PgCluster> {
  const bin = postgresBin();
  const dir = mkdtempSync(path.join(tmpdir(), 'sb-fault-pg-'));
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'postgres.log');
  const port = await freePort();
  pgRun(bin, 'initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c max_connections=200',
    '-c fsync=off',
    '-c shared_buffers=128MB',
  ].join(' ');
  pgRun(bin, 'pg_ctl', ['-D', data, '-l', log, '-o', options, '-w', 'start']);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const stop = onCleanup(() => {
    try {
      pgRun(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // Not running.
    }
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    port,
    url,
    async restart() {
      const t0 = performance.now();
      pgRun(bin, 'pg_ctl', ['-D', data, '-l', log, '-m', 'fast', '-w', 'restart']);
      while (!(await answers(url))) await new Promise((r) => setTimeout(r, 20));
      return { awayMs: performance.now() - t0 };
    },
    async terminateBackends() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        const { rows } = await c.query<{ n: string }>(
          `select count(*) filter (where pg_terminate_backend(pid)) as n from pg_stat_activity
           where pid <> pg_backend_pid() and backend_type = 'client backend'`,
        );
        return Number(rows[0]!.n);
      } finally {
        await c.end();
      }
    },
    async backendsOf(database) {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        const { rows } = await c.query<{ n: string }>(
          'select count(*) as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [database],
        );
        return Number(rows[0]!.n);
      } finally {
        await c.end();
      }
    },
    close: stop,
  };
}
