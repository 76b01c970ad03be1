import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Cron } from 'croner';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge } from 'prom-client';
import { withTransaction } from '../../db/transaction.ts';
import type { AppContext } from '../context.ts';
import { readArchive } from './archive.ts';
import { backupName, fsBackupStore, s3BackupStore, type BackupStore, type StoredBackup } from './backup-store.ts';
import { dumperOf, startServerArchive } from './server-archive.ts';

/** What the schedule waits on; tests drive it with a clock of their own. */
export interface BackupClock {
  now(): number;
  /** Resolves at `until` (ms since the epoch), or when `signal` aborts. */
  sleep(until: number, signal: AbortSignal): Promise<void>;
}

/** Longest single timer: long waits are taken in steps, so a changed wall clock is noticed within the hour. */
const STEP_MS = 60 * 60_000;

export const realClock: BackupClock = {
  now: () => Date.now(),
  async sleep(until, signal) {
    while (!signal.aborted && Date.now() < until) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(until - Date.now(), STEP_MS));
        function done() {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          resolve();
        }
        signal.addEventListener('abort', done, { once: true });
      });
    }
  },
};

/** pg_try_advisory_xact_lock key of "writing the scheduled backup" (any number, the same on every instance). */
const BACKUP_LOCK = 741_852_964;

/** Where scheduled backups go for this app's configuration. */
export function backupStoreOf(ctx: Pick<AppContext, 'config' | 'storage'>): BackupStore {
  const { config, storage } = ctx;
  if (config.storage === 's3' && config.s3) return s3BackupStore(storage, config.s3.bucket, config.dataDir);
  return fsBackupStore(path.join(config.dataDir, 'backups'));
}

export type RunOutcome = 'written' | 'exists' | 'elsewhere';

export interface BackupScheduler {
  /** Runs the backup due at `due` now (what the timer does). Throws what made it fail, after logging it. */
  run(due: Date): Promise<RunOutcome>;
  stop(): Promise<void>;
}

export interface ScheduleOptions {
  schedule: string;
  keep: number;
  clock?: BackupClock;
  store?: BackupStore;
}

/**
 * Writes a backup whenever `schedule` (cron) is due and keeps the newest `keep`. On PostgreSQL every instance
 * wakes, one takes the advisory lock and writes, and the others find the backup of that time written (or the
 * lock held) and skip it. A backup is written to a staging file, read back against its manifest, and only then
 * stored under its name; a failure (disk full, bucket gone) is logged and counted, and leaves the older backups
 * as they were. Metrics: studybuddy_backup_last_success_timestamp_seconds (from the store, so every instance
 * reports the one that wrote), studybuddy_backup_failures_total (this instance), studybuddy_backups_stored.
 */
export function startBackupSchedule(ctx: AppContext, opts: ScheduleOptions): BackupScheduler {
  const clock = opts.clock ?? realClock;
  const store = opts.store ?? backupStoreOf(ctx);
  const cron = new Cron(opts.schedule, { paused: true, mode: '5-or-6-parts' });
  const stopping = new AbortController();
  const log = ctx.log.child({ component: 'backup' });

  let listed: { at: number; backups: Promise<StoredBackup[]> } | undefined;
  const stored = () => {
    if (!listed || Date.now() - listed.at > 30_000) {
      const backups = store.list();
      listed = { at: Date.now(), backups };
      backups.catch(() => (listed = undefined));
    }
    return listed.backups;
  };
  const registers = [ctx.metrics.registry];
  new Gauge({
    name: 'studybuddy_backup_last_success_timestamp_seconds',
    help: 'When the newest scheduled backup was stored (Unix time; 0: none yet).',
    registers,
    async collect() {
      const newest = (await stored().catch(() => [])).at(-1);
      this.set(newest ? newest.written.getTime() / 1000 : 0);
    },
  });
  new Gauge({
    name: 'studybuddy_backups_stored',
    help: 'Scheduled backups kept in the backup store.',
    registers,
    async collect() {
      this.set((await stored().catch(() => [])).length);
    },
  });
  const failures = new Counter({
    name: 'studybuddy_backup_failures_total',
    help: 'Scheduled backups this instance failed to write (see the log for why).',
    registers,
  });

  async function write(name: string): Promise<{ bytes: number }> {
    const dumper = dumperOf(ctx);
    await mkdir(store.staging, { recursive: true });
    const partial = path.join(store.staging, `.${name}.partial`);
    try {
      let made = await startServerArchive(ctx, dumper);
      while (!made && !stopping.signal.aborted) {
        // `npm run backup` is being served: take the next turn.
        await new Promise((resolve) => setTimeout(resolve, 500));
        made = await startServerArchive(ctx, dumper);
      }
      if (!made) throw new Error('the server stopped before the backup could start');
      try {
        await pipeline(made.archive, createWriteStream(partial, { mode: 0o600 }));
      } finally {
        await made.release();
      }
      const manifest = await readArchive(partial).catch((err: Error) => {
        throw new Error(`the archive written does not check out: ${err.message}`);
      });
      await store.put(name, partial);
      return { bytes: manifest.entries.reduce((n, e) => n + e.size, 0) };
    } finally {
      await rm(partial, { force: true });
    }
  }

  async function prune(): Promise<string[]> {
    const all = await store.list();
    const old = all.slice(0, Math.max(0, all.length - opts.keep));
    for (const b of old) await store.delete(b.name);
    return old.map((b) => b.name);
  }

  /** Runs `work` holding the backup lock (PostgreSQL: one instance at a time; PGlite is one process anyway). */
  async function exclusively<T>(work: () => Promise<T>): Promise<T | 'elsewhere'> {
    if (ctx.database.kind === 'pglite') return work();
    return withTransaction(ctx.db, async (tx) => {
      const got = await tx.execute(sql`select pg_try_advisory_xact_lock(${BACKUP_LOCK}) as locked`);
      const locked = (got as unknown as { rows: { locked: boolean }[] }).rows[0]?.locked;
      return locked ? work() : 'elsewhere';
    });
  }

  async function run(due: Date): Promise<RunOutcome> {
    const name = backupName(due);
    const started = Date.now();
    try {
      const outcome = await exclusively(async () => {
        if ((await store.list()).some((b) => b.name === name)) return 'exists' as const;
        const { bytes } = await write(name);
        listed = undefined;
        log.info({ backup: name, where: store.where, bytes, ms: Date.now() - started }, 'scheduled backup written');
        const removed = await prune().catch((err: unknown) => {
          log.warn({ err, where: store.where }, 'removing backups beyond BACKUP_KEEP failed');
          return [];
        });
        if (removed.length) log.info({ removed, keep: opts.keep }, 'older backups removed (BACKUP_KEEP)');
        return 'written' as const;
      });
      listed = undefined;
      return outcome;
    } catch (err) {
      failures.inc();
      log.error({ err, backup: name, where: store.where }, 'scheduled backup failed; the older backups are kept');
      throw err;
    }
  }

  const loop = (async () => {
    let from = new Date(clock.now());
    for (;;) {
      const due = cron.nextRun(from);
      if (!due) return;
      await clock.sleep(due.getTime(), stopping.signal);
      if (stopping.signal.aborted) return;
      await run(due).catch(() => undefined);
      // A backup that took longer than the interval skips the runs it overlapped.
      from = new Date(Math.max(clock.now(), due.getTime()));
    }
  })();

  return {
    run,
    async stop() {
      stopping.abort();
      await loop;
    },
  };
}

/** BACKUP_SCHEDULE: starts the schedule once the app is ready, and stops it (letting a running backup end) on close. */
export function installBackupSchedule(app: FastifyInstance, ctx: AppContext): void {
  const { schedule, keep } = ctx.config.backup;
  if (!schedule) return;
  let scheduler: BackupScheduler | undefined;
  app.addHook('onReady', async () => {
    scheduler = startBackupSchedule(ctx, { schedule, keep });
    ctx.log.info({ schedule, keep, where: backupStoreOf(ctx).where }, 'scheduled backups on');
  });
  app.addHook('preClose', async () => {
    await scheduler?.stop();
  });
}
