// Small helpers of the chat benchmark: timing, process figures, child processes, databases and cleanup on exit.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import pg from 'pg';

export const root = path.resolve(import.meta.dirname, '../..');
export const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The p-th percentile of an ascending-sorted list. */
export const pctSorted = (sorted: ArrayLike<number>, p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]! : NaN;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** CPU seconds used so far and resident memory of a process (Linux /proc); zeros once it is gone. */
export function procStats(pid: number): { cpu: number; rssMb: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return { cpu: ticks / 100, rssMb: Number(rss?.[1] ?? 0) / 1024 };
  } catch {
    return { cpu: 0, rssMb: 0 };
  }
}

/** Processes whose command line contains `needle` (e.g. the backends of one PostgreSQL database). */
export function pidsMatching(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(needle)) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

/** CPU seconds used so far by the PostgreSQL backends serving one database (their titles name it). */
export function databaseCpu(database: string): Map<number, number> {
  return new Map(pidsMatching(` ${database} `).map((pid) => [pid, procStats(pid).cpu]));
}

/** CPU seconds between two `databaseCpu` samples (backends present in both). */
export function databaseCpuSince(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, cpu] of after) sum += cpu - (before.get(pid) ?? cpu);
  return sum;
}

/** This process's open-file limit (soft and hard), from /proc/self/limits. */
export function openFileLimit(): { soft: number; hard: number } {
  const m = /^Max open files\s+(\S+)\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
  const n = (v: string | undefined) => (v === undefined ? 1024 : v === 'unlimited' ? Infinity : Number(v));
  return { soft: n(m?.[1]), hard: n(m?.[2]) };
}

/**
 * Raises this process's open-file limit to at least `need` (soft and hard, with `prlimit --pid`): the servers
 * and clients it spawns afterwards inherit it. Raising the hard limit takes root with CAP_SYS_RESOURCE (a
 * container may be started without it). Answers why it cannot, or null once the limit is enough.
 */
export function raiseOpenFiles(need: number): string | null {
  const { soft, hard } = openFileLimit();
  if (soft >= need) return null;
  const fmtN = (n: number) => n.toLocaleString('en');
  if (hard < need && process.getuid?.() !== 0) {
    return `needs ${fmtN(need)} open files, the hard limit is ${fmtN(hard)} and this is not root (prlimit --nofile=${need})`;
  }
  const limit = `--nofile=${need}:${Math.max(need, hard)}`;
  const r = spawnSync('prlimit', ['--pid', String(process.pid), limit], { encoding: 'utf8' });
  if (r.error || r.status !== 0 || openFileLimit().soft < need) {
    const why = (r.error?.message ?? r.stderr ?? '').trim();
    return (
      `needs ${fmtN(need)} open files and the hard limit is ${fmtN(hard)}; prlimit ${limit} failed (${why})` +
      (hard < need
        ? ': raising it takes CAP_SYS_RESOURCE, which this root lacks (a container started with --ulimit nofile?)'
        : '')
    );
  }
  console.log(
    `\n!!!!!! open-file limit raised from ${fmtN(soft)}:${fmtN(hard)} to ${limit.slice(9)} (prlimit --pid ${process.pid}) !!!!!!\n`,
  );
  return null;
}

/** Ephemeral ports one source address has towards one destination (net.ipv4.ip_local_port_range). */
export function ephemeralPorts(): number {
  try {
    const [lo, hi] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    return hi! - lo! + 1;
  } catch {
    return 28_232;
  }
}

export function spawnLogged(args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; logs: string[] } {
  const logs: string[] = [];
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d: Buffer) => logs.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => logs.push(d.toString()));
  return { child, logs };
}

/** SIGTERM, then SIGKILL after `graceMs`; `group` signals the child's whole process group (spawned detached). */
export async function stopChild(child: ChildProcess, { group = false, graceMs = 5000 } = {}) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  const kill = (signal: NodeJS.Signals) => {
    try {
      if (group) process.kill(-child.pid!, signal);
      else child.kill(signal);
    } catch {
      // Already gone.
    }
  };
  kill('SIGTERM');
  await Promise.race([exited, sleep(graceMs)]);
  if (child.exitCode === null && child.signalCode === null) kill('SIGKILL');
}

// Everything a run leaves behind (servers, ejabberd, temporary directories, databases) is undone on Ctrl+C too.
const cleanups = new Set<() => Promise<void> | void>();

/** Registers an undo step; the returned function runs it once and unregisters it. */
export function onCleanup(fn: () => Promise<void> | void): () => Promise<void> {
  let done = false;
  const once = async () => {
    if (done) return;
    done = true;
    cleanups.delete(once);
    await fn();
  };
  cleanups.add(once);
  return once;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: cleaning up…`);
    void Promise.allSettled([...cleanups].map((fn) => fn())).then(() => process.exit(130));
  });
}
// A stray error (a client socket's, outside any leg) cleans up too before the process goes.
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.once(event, (err: unknown) => {
    console.error(`\n${event}: ${err instanceof Error ? err.stack : String(err)}\ncleaning up…`);
    void Promise.allSettled([...cleanups].map((fn) => fn())).then(() => process.exit(1));
  });
}

/** A fresh PostgreSQL database for `fn`, dropped afterwards (and on Ctrl+C). */
export async function withDatabase<T>(prefix: string, fn: (url: string, name: string) => Promise<T>): Promise<T> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const drop = onCleanup(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await admin.end().catch(() => undefined);
  });
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  try {
    return await fn(url.toString(), name);
  } finally {
    await drop();
  }
}

/** Counters of one PostgreSQL database so far: transactions committed (each statement outside one is its own). */
export interface DatabaseCounters {
  xacts: number;
  inserted: number;
  updated: number;
}

/**
 * Reads pg_stat_database for one database. A busy backend reports its counts at most once a second and an idle
 * one within 10 s, so a step's figure is approximate: up to a few seconds of the step before (the warm-up's socket
 * set-up among them) may land in it. For exact counts per statement run the step with
 * PGOPTIONS='-c log_statement=all' and count the server log's lines.
 */
export async function databaseCounters(database: string): Promise<DatabaseCounters | null> {
  const client = new pg.Client({ connectionString: PG_URL });
  try {
    await client.connect();
    const { rows } = await client.query<{ x: string; i: string; u: string }>(
      'select xact_commit as x, tup_inserted as i, tup_updated as u from pg_stat_database where datname = $1',
      [database],
    );
    const r = rows[0];
    return r ? { xacts: Number(r.x), inserted: Number(r.i), updated: Number(r.u) } : null;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}
