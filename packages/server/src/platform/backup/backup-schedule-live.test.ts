// The backup schedule on the real clock and into an S3 bucket (backup-schedule.test.ts has the rest: split so two
// workers share the time).
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asc } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { users } from '../../db/schema.ts';
import { chatRef, friends, history, post } from '../../features/chat/chat.test-kit.ts';
import { copyMigratedDatabase } from '../../test/test-app.ts';
import { startS3rver } from '../storage/s3rver-store.ts';
import { backupStoreOf, startBackupSchedule, type BackupScheduler } from './backup-schedule.ts';
import { backupName, fsBackupStore } from './backup-store.ts';
import { captureLog, manualClock, metric, restoreCli, until } from './backup.test-kit.ts';

describe.skipIf(!!process.env.TEST_DATABASE_URL)('BACKUP_SCHEDULE on a running server', { timeout: 300_000 }, () => {
  let work: string;
  let app: App | undefined;
  afterAll(async () => {
    await app?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('writes backups on the real clock and keeps BACKUP_KEEP of them', async () => {
    work = await mkdtemp(path.join(tmpdir(), 'sb-backup-live-'));
    await copyMigratedDatabase(work);
    const config = loadConfig({
      DATA_DIR: work,
      LOG_LEVEL: 'silent',
      BACKUP_SCHEDULE: '* * * * * *',
      BACKUP_KEEP: '1',
    });
    app = await buildApp(config, { logger: false });
    await app.ready();
    const store = fsBackupStore(path.join(work, 'backups'));
    let first: string | undefined;
    await until(async () => (first = (await store.list())[0]?.name) !== undefined, 'a first scheduled backup');
    await until(async () => {
      const all = await store.list();
      return all.length === 1 && all[0]!.name !== first;
    }, 'a second backup to replace the first');
  });
});

describe.skipIf(!!process.env.TEST_DATABASE_URL)('scheduled backups in the S3 bucket', { timeout: 300_000 }, () => {
  let work: string;
  let s3: Awaited<ReturnType<typeof startS3rver>> | undefined;
  let app: App | undefined;
  let restored: App | undefined;
  let scheduler: BackupScheduler | undefined;
  afterAll(async () => {
    await scheduler?.stop();
    await app?.close();
    await restored?.close();
    await s3?.server.close();
    await rm(work, { recursive: true, force: true });
  });

  it('writes to backups/ in the bucket, survives the bucket being away, and npm run restore takes the newest from it', async () => {
    work = await mkdtemp(path.join(tmpdir(), 'sb-backup-s3-'));
    const directory = path.join(work, 's3');
    const bucket = 'studybuddy-backups';
    s3 = await startS3rver({ address: '127.0.0.1', port: 0, directory, buckets: [bucket] });
    const port = s3.port;
    const env = {
      STORAGE: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    };
    const dataDir = path.join(work, 'a');
    await copyMigratedDatabase(dataDir);
    const log = captureLog();
    app = await buildApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env }), { logStream: log.stream });
    const [ada, bob] = await friends(app, 2, ['Ada Lovelace', 'Bob Babbage']);
    expect((await post(app, ada, chatRef(ada, bob), { type: 'text', content: 'Kept in the bucket' })).statusCode).toBe(
      201,
    );
    const time = manualClock('2026-03-01T00:00:00Z');
    const store = backupStoreOf(app.ctx);
    expect(store.where).toBe(`s3://${bucket}/backups/`);
    scheduler = startBackupSchedule(app.ctx, { schedule: '*/15 * * * *', keep: 2, clock: time.clock });
    const names = async () => (await store.list()).map((b) => b.name);
    for (let i = 0; i < 3; i++) {
      const at = await time.next();
      // The log says when it is stored (listing the bucket in a loop would keep the in-process store busy).
      await until(() => {
        const failed = log.lines.find((l) => l.includes('"level":50'));
        if (failed) throw new Error(failed);
        return log.lines.some((l) => l.includes('"msg":"scheduled backup written"') && l.includes(backupName(at)));
      }, `the backup due at ${at.toISOString()}`);
    }
    await until(() => log.lines.some((l) => l.includes('"msg":"older backups removed (BACKUP_KEEP)"')), 'retention');
    expect(await names()).toHaveLength(2);
    const kept = await store.list();
    expect(await app.ctx.storage.list('backups')).toEqual(kept.map((b) => `backups/${b.name}`));

    // The bucket is away (the store is down): the run fails, is logged and counted, and leaves nothing behind.
    await s3.server.close();
    s3 = undefined;
    await time.next();
    await until(async () => (await metric(app!, 'studybuddy_backup_failures_total')) === 1, 'the failure to count');
    expect(log.lines.some((l) => l.includes('"msg":"scheduled backup failed; the older backups are kept"'))).toBe(true);
    expect((await readdir(dataDir)).filter((n) => n.endsWith('.partial'))).toEqual([]);

    // Back again: the older backups are as they were.
    s3 = await startS3rver({ address: '127.0.0.1', port, directory, buckets: [bucket] });
    expect((await store.list()).map((b) => ({ name: b.name, bytes: b.bytes }))).toEqual(
      kept.map((b) => ({ name: b.name, bytes: b.bytes })),
    );

    const dirB = path.join(work, 'b');
    const run = await restoreCli(['--newest', '--data-dir', dirB], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Restoring ${kept.at(-1)!.name} (`);
    expect(run.stdout).toContain(`from s3://${bucket}/backups/`);
    restored = await buildApp(loadConfig({ DATA_DIR: dirB, LOG_LEVEL: 'silent', ...env }), { logger: false });
    const accounts = (d: App['ctx']['db']) => d.select().from(users).orderBy(asc(users.id));
    expect(await accounts(restored.ctx.db)).toEqual(await accounts(app.ctx.db));
    const page = (await history(restored, ada, chatRef(ada, bob))).json() as { messages: { content: string }[] };
    expect(page.messages.map((m) => m.content)).toEqual(['Kept in the bucket']);
  });
});
