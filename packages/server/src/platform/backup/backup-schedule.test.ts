import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { messages, storedFiles, users } from '../../db/schema.ts';
import { chatRef, friends, history, pngBytes, post } from '../../features/chat/chat.test-kit.ts';
import { dropPostgres, makePostgres } from '../../test/postgres-databases.ts';
import { copyMigratedDatabase, freshPostgres } from '../../test/test-app.ts';
import type { TestUser } from '../../test/users.ts';
import { type BackupClock, startBackupSchedule, type BackupScheduler } from './backup-schedule.ts';
import { backupName, fsBackupStore } from './backup-store.ts';
import { captureLog, manualClock, metric, restoreCli, until } from './backup.test-kit.ts';

const sha256 = async (file: string) =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');

describe('BACKUP_SCHEDULE and BACKUP_KEEP settings', () => {
  it('default to no schedule and 14 kept; a bad cron expression or count stops the start, naming it', () => {
    const dir = path.join(tmpdir(), 'sb-backup-config');
    expect(loadConfig({ DATA_DIR: dir }).backup).toEqual({ schedule: undefined, keep: 14 });
    expect(loadConfig({ DATA_DIR: dir, BACKUP_SCHEDULE: '0 3 * * *', BACKUP_KEEP: '7' }).backup).toEqual({
      schedule: '0 3 * * *',
      keep: 7,
    });
    expect(() => loadConfig({ DATA_DIR: dir, BACKUP_SCHEDULE: 'every night' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir, BACKUP_SCHEDULE: '0 25 * * *' })).toThrow(
      /^BACKUP_SCHEDULE must be a cron expression such as "0 3 \* \* \*" \(every day at 03:00\), got "0 25 \* \* \*": .*hour/,
    );
    expect(() => loadConfig({ DATA_DIR: dir, BACKUP_KEEP: '0' })).toThrow('BACKUP_KEEP must be a positive integer');
  });
});

describe.skipIf(!!process.env.TEST_DATABASE_URL)(
  'scheduled backups of the embedded installation',
  { timeout: 300_000 },
  () => {
    let work: string;
    let dirA: string;
    let backups: string;
    let app: App;
    let restored: App | undefined;
    let scheduler: BackupScheduler;
    let ada: TestUser;
    let bob: TestUser;
    const log = captureLog();
    const time = manualClock('2026-03-01T00:00:00Z');
    const store = () => fsBackupStore(backups);
    const names = async () => (await store().list()).map((b) => b.name);

    beforeAll(async () => {
      work = await mkdtemp(path.join(tmpdir(), 'sb-backup-schedule-'));
      dirA = path.join(work, 'a');
      backups = path.join(dirA, 'backups');
      await copyMigratedDatabase(dirA);
      const config = loadConfig({ DATA_DIR: dirA, LOG_LEVEL: 'info', PUBLIC_URL: 'http://localhost:3000' });
      app = await buildApp(config, { logStream: log.stream });
      await app.ready();
      [ada, bob] = await friends(app, 2, ['Ada Lovelace', 'Bob Babbage']);
      const ref = chatRef(ada, bob);
      // Through a real connection, as a browser uploads.
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      const up = await fetch(`${address}/api/chats/${encodeURIComponent(ref.id)}/attachments?kind=image`, {
        method: 'POST',
        headers: { cookie: ada.cookie, 'content-type': 'image/png' },
        body: new Uint8Array(await pngBytes(320, 200)),
      });
      const uploaded = (await up.json()) as { url: string };
      expect(up.status, JSON.stringify(uploaded)).toBe(201);
      expect((await post(app, ada, ref, { type: 'image', content: uploaded.url })).statusCode).toBe(201);
      expect((await post(app, bob, ref, { type: 'text', content: 'Before any backup' })).statusCode).toBe(201);
      scheduler = startBackupSchedule(app.ctx, { schedule: '*/15 * * * *', keep: 2, clock: time.clock });
    });
    afterAll(async () => {
      await scheduler?.stop();
      await app?.close();
      await restored?.close();
      await rm(work, { recursive: true, force: true });
    });

    it('writes a backup each time the schedule is due and keeps the newest BACKUP_KEEP', async () => {
      expect(await metric(app, 'studybuddy_backup_last_success_timestamp_seconds')).toBe(0);
      const due: Date[] = [];
      for (let i = 0; i < 4; i++) {
        const at = await time.next();
        due.push(at);
        await until(async () => (await names()).includes(backupName(at)), `the backup due at ${at.toISOString()}`);
        await post(app, i % 2 ? ada : bob, chatRef(ada, bob), { type: 'text', content: `After backup ${i + 1}` });
      }
      expect(due.map((d) => d.toISOString())).toEqual([
        '2026-03-01T00:15:00.000Z',
        '2026-03-01T00:30:00.000Z',
        '2026-03-01T00:45:00.000Z',
        '2026-03-01T01:00:00.000Z',
      ]);
      await until(async () => (await names()).length === 2, 'the oldest backups to be removed');
      expect(await names()).toEqual([backupName(due[2]!), backupName(due[3]!)]);
      expect((await readdir(backups)).filter((n) => n.endsWith('.partial'))).toEqual([]);
      expect(await metric(app, 'studybuddy_backups_stored')).toBe(2);
      expect(await metric(app, 'studybuddy_backup_failures_total')).toBe(0);
      const newest = (await store().list()).at(-1)!;
      expect(await metric(app, 'studybuddy_backup_last_success_timestamp_seconds')).toBe(
        newest.written.getTime() / 1000,
      );
      expect(log.lines.filter((l) => l.includes('"msg":"scheduled backup written"'))).toHaveLength(4);
    });

    it('a backup that cannot be written (disk full) is logged and counted, and leaves the older backups as they were', async () => {
      const before = await store().list();
      const sums = await Promise.all(before.map((b) => sha256(path.join(backups, b.name))));
      const lastSuccess = await metric(app, 'studybuddy_backup_last_success_timestamp_seconds');

      // The next run writes its staging file here: a full disk.
      const nextName = backupName(new Date('2026-03-01T01:15:00Z'));
      await symlink('/dev/full', path.join(backups, `.${nextName}.partial`));
      const at = await time.next();
      expect(backupName(at)).toBe(nextName);
      await until(
        async () => (await metric(app, 'studybuddy_backup_failures_total')) === 1,
        'the failure to be counted',
      );

      const failed = log.lines.find((l) => l.includes('"msg":"scheduled backup failed; the older backups are kept"'));
      expect(failed).toBeDefined();
      expect(JSON.parse(failed!)).toMatchObject({
        level: 50,
        backup: nextName,
        where: backups,
        err: { code: 'ENOSPC' },
      });
      expect(await names()).toEqual(before.map((b) => b.name));
      expect(await Promise.all(before.map((b) => sha256(path.join(backups, b.name))))).toEqual(sums);
      expect(await readdir(backups)).toEqual(before.map((b) => b.name));
      expect(await metric(app, 'studybuddy_backup_last_success_timestamp_seconds')).toBe(lastSuccess);

      // The next run succeeds again, and retention goes on.
      const again = await time.next();
      await until(async () => (await names()).includes(backupName(again)), 'the backup after the failure');
      await until(async () => (await names()).length === 2, 'retention after the failure');
      expect(await names()).toEqual([before[1]!.name, backupName(again)]);
      expect(await metric(app, 'studybuddy_backup_failures_total')).toBe(1);
    });

    it('npm run restore -- --newest into a fresh data dir gives back every account, message and file', async () => {
      const newest = (await store().list()).at(-1)!.name;
      const listed = await restoreCli(['--list', '--from', backups]);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout.split('\n')[0]).toContain(newest);

      const dirB = path.join(work, 'b');
      const run = await restoreCli(['--newest', '--from', backups, '--data-dir', dirB]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(`Restoring ${newest}`);
      expect(run.stdout).toContain(`Restored ${newest} into ${dirB}`);

      restored = await buildApp(loadConfig({ DATA_DIR: dirB, LOG_LEVEL: 'silent' }), { logger: false });
      const accounts = (db: App['ctx']['db']) => db.select().from(users).orderBy(asc(users.id));
      const allMessages = (db: App['ctx']['db']) => db.select().from(messages).orderBy(asc(messages.id));
      const files = (db: App['ctx']['db']) => db.select().from(storedFiles).orderBy(asc(storedFiles.path));
      expect(await accounts(restored.ctx.db)).toEqual(await accounts(app.ctx.db));
      const sent = await allMessages(app.ctx.db);
      expect(sent.map((m) => m.content)).toContain('After backup 4');
      expect(await allMessages(restored.ctx.db)).toEqual(sent);
      const stored = await files(app.ctx.db);
      expect(stored.length).toBeGreaterThan(0);
      expect(await files(restored.ctx.db)).toEqual(stored);
      for (const f of stored) {
        const original = await app.ctx.storage.get(f.path);
        const copy = await restored.ctx.storage.get(f.path);
        expect(copy, f.path).not.toBeNull();
        const bytes = async (got: NonNullable<typeof copy>) => Buffer.concat(await got.body.toArray());
        expect((await bytes(copy!)).equals(await bytes(original!))).toBe(true);
      }
      // The sessions came back too: the students are signed in on the restored server, and see their chat.
      const page = (await history(restored, ada, chatRef(ada, bob))).json() as { messages: { content: string }[] };
      expect(page.messages.map((m) => m.content)).toContain('After backup 4');
      expect(existsSync(path.join(dirB, 'secret.key'))).toBe(true);
    });

    it('npm run restore names a backup that is not there, and lists what is', async () => {
      const run = await restoreCli(['studybuddy-backup-2020-01-01T00-00-00Z.tar.gz', '--from', backups]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('no backup named "studybuddy-backup-2020-01-01T00-00-00Z.tar.gz" in');
      expect(run.stderr).toContain('npm run restore -- --list shows them');
    });
  },
);

/** A clock whose timer never fires: the test runs the schedule's runs itself. */
const stoppedClock: BackupClock = {
  now: () => Date.parse('2026-03-01T00:00:00Z'),
  sleep: (_until, signal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve())),
};

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'scheduled backups on PostgreSQL, two instances',
  { timeout: 300_000 },
  () => {
    const base = process.env.TEST_DATABASE_URL!;
    let work: string;
    let db: { url: string; drop: () => Promise<void> };
    let restoredDb: { name: string; url: string } | undefined;
    const apps: App[] = [];
    const schedulers: BackupScheduler[] = [];
    afterAll(async () => {
      await Promise.all(schedulers.map((s) => s.stop()));
      for (const a of apps) await a.close();
      await db?.drop();
      if (restoredDb) await dropPostgres(base, restoredDb.name);
      await rm(work, { recursive: true, force: true });
    });

    it('one instance writes each backup under the lock; npm run restore puts the newest into an empty database', async () => {
      work = await mkdtemp(path.join(tmpdir(), 'sb-backup-pg-'));
      db = (await freshPostgres())!;
      const backups = path.join(work, 'backups');
      const store = fsBackupStore(backups);
      const secret = 's'.repeat(40);
      for (const name of ['a', 'b']) {
        const config = loadConfig({
          DATA_DIR: path.join(work, name),
          DATABASE_URL: db.url,
          SECRET_KEY: secret,
          LOG_LEVEL: 'silent',
        });
        const app = await buildApp(config, { logger: false });
        apps.push(app);
        schedulers.push(startBackupSchedule(app.ctx, { schedule: '0 3 * * *', keep: 2, clock: stoppedClock, store }));
      }
      const [a, b] = apps as [App, App];
      const [ada, bob] = await friends(a, 2, ['Ada Lovelace', 'Bob Babbage']);
      for (const [i, due] of ['2026-03-01T03:00:00Z', '2026-03-02T03:00:00Z', '2026-03-03T03:00:00Z'].entries()) {
        expect((await post(b, ada, chatRef(ada, bob), { type: 'text', content: `Night ${i + 1}` })).statusCode).toBe(
          201,
        );
        // Both instances wake at the same time: one writes, the other finds the lock taken or the backup there.
        const outcomes = await Promise.all(schedulers.map((s) => s.run(new Date(due))));
        expect(
          outcomes.filter((o) => o === 'written'),
          outcomes.join(),
        ).toHaveLength(1);
        expect(outcomes.filter((o) => o === 'elsewhere' || o === 'exists')).toHaveLength(1);
      }
      expect((await store.list()).map((x) => x.name)).toEqual([
        backupName(new Date('2026-03-02T03:00:00Z')),
        backupName(new Date('2026-03-03T03:00:00Z')),
      ]);

      // Not into a database that has tables.
      const refused = await restoreCli(['--newest', '--from', backups, '--data-dir', path.join(work, 'c')], {
        DATABASE_URL: db.url,
      });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('The database DATABASE_URL names is not empty.');

      restoredDb = await makePostgres(base);
      const run = await restoreCli(['--newest', '--from', backups, '--data-dir', path.join(work, 'c')], {
        DATABASE_URL: restoredDb.url,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('into the database DATABASE_URL names');
      const restored = await buildApp(
        loadConfig({ DATA_DIR: path.join(work, 'c'), DATABASE_URL: restoredDb.url, LOG_LEVEL: 'silent' }),
        { logger: false },
      );
      apps.push(restored);
      expect(restored.ctx.config.secretKey).toBe(secret);
      const accounts = (d: App['ctx']['db']) => d.select().from(users).orderBy(asc(users.id));
      const allMessages = (d: App['ctx']['db']) => d.select().from(messages).orderBy(asc(messages.id));
      expect(await accounts(restored.ctx.db)).toEqual(await accounts(a.ctx.db));
      expect(await allMessages(restored.ctx.db)).toEqual(await allMessages(a.ctx.db));
      const page = (await history(restored, bob, chatRef(ada, bob))).json() as { messages: { content: string }[] };
      expect(page.messages.map((m) => m.content)).toEqual(['Night 1', 'Night 2', 'Night 3']);
    });
  },
);
