// postgres-leg: instances share an upload through resumable-uploads.repository.ts (FOR UPDATE SKIP LOCKED)
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { ERRORS } from '@tus/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resumableUploads } from '../../db/schema.ts';
import type { AppContext } from '../../platform/context.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { registerUploadTarget, stagingDir } from './files.service.ts';
import { createCompletion } from './resumable-completion.ts';
import { ResumableStore } from './resumable-store.ts';
import { scratchDirOf } from './resumable.service.ts';
import { StagingStore } from './staging-store.ts';
import { SharedLocker } from './upload-locker.ts';

/**
 * What several instances share about a resumable upload, with each "instance" played by its own locker or
 * completion on one database: the lock (a waiting request makes the holder let go; a dead holder's lease runs
 * out) and the completion (two instances finishing the same upload at once store it once).
 */
describe('resumable uploads: lock and completion shared through the database', () => {
  let t: TestApp;
  let user: TestUser;
  const quiet = { warn: () => undefined };
  beforeAll(async () => {
    t = await createTestApp();
    registerUploadTarget(t.app.ctx, 'test-file', {
      kind: 'file',
      maxBytes: 1024 * 1024,
      folder: (u) => `users/${u.id}/t`,
    });
    user = await createUser(t.app);
  });
  afterAll(() => t.close());

  const newUpload = async (size = 1000) => {
    const id = `${user.id}.${randomBytes(12).toString('hex')}`;
    await t.app.ctx.db
      .insert(resumableUploads)
      .values({ id, userId: user.id, size, metadata: { target: 'test-file', filename: 'f.bin' } });
    return id;
  };
  /** Far longer than any wait here, so a wait that ends early was ended by a release, on any machine. */
  const LEASE_MS = 60_000;
  const instance = () => new SharedLocker(t.app.ctx.db, quiet, { leaseMs: LEASE_MS, renewMs: 50, pollMs: 20 });
  const never = new AbortController().signal;

  it('a request waiting on another instance makes the holder let go, then takes the lock', async () => {
    const id = await newUpload();
    const held = instance().newLock(id);
    let asked = 0;
    await held.lock(never, async () => {
      asked++;
      await held.unlock();
    });
    const started = Date.now();
    const waiting = instance().newLock(id);
    await waiting.lock(never, async () => undefined);
    expect(asked).toBe(1);
    expect(Date.now() - started).toBeLessThan(LEASE_MS); // released on request, not by the lease running out
    const [row] = await t.app.ctx.db.select().from(resumableUploads).where(eq(resumableUploads.id, id));
    expect(row!.lockToken).not.toBeNull();
    await waiting.unlock();
    const [free] = await t.app.ctx.db.select().from(resumableUploads).where(eq(resumableUploads.id, id));
    expect(free!.lockToken).toBeNull();
  });

  it('takes over the lock of a dead instance when its lease runs out, and gives up after its timeout otherwise', async () => {
    const id = await newUpload();
    const dead = (leaseMs: number) =>
      t.app.ctx.db.execute(
        sql`update resumable_uploads set lock_token = 'dead', locked_until = now() + ${leaseMs} * interval '1 millisecond'
            where id = ${id}`,
      );
    await dead(300);
    const lock = instance().newLock(id);
    await lock.lock(never, async () => undefined);
    await lock.unlock();

    // A lease that outlasts the wait however slow this machine is (300 ms ran out before the wait began once).
    await dead(60_000);
    const impatient = new SharedLocker(t.app.ctx.db, quiet, { pollMs: 20, acquireTimeoutMs: 100 }).newLock(id);
    await expect(impatient.lock(never, async () => undefined)).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
  });

  it('two instances completing the same upload at once store it once and answer the same file', async () => {
    const data = Buffer.from('%PDF-1.4\n' + 'x'.repeat(5000));
    const id = await newUpload(data.length);
    await mkdir(stagingDir(t.config), { recursive: true });
    await writeFile(path.join(stagingDir(t.config), id), data);
    await writeFile(
      path.join(stagingDir(t.config), `${id}.json`),
      JSON.stringify({ id, size: data.length, offset: 0, metadata: {}, creation_date: new Date().toISOString() }),
    );
    const stored: string[] = [];
    const log = { ...quiet, info: (o: { upload: string }) => stored.push(o.upload), error: () => undefined };
    // The app's registry (with 'test-file') and a log that records what is stored.
    const ctx = { ...t.app.ctx, log } as unknown as AppContext;
    const store = new ResumableStore(new StagingStore(stagingDir(t.config)), t.app.ctx.db);
    const [one, two] = [
      createCompletion(ctx, store, scratchDirOf(t.config)),
      createCompletion(ctx, store, scratchDirOf(t.config)),
    ];
    const sessionUser = { id: user.id, email: user.email, emailVerified: true, sessionId: '' };

    const [a, b] = await Promise.all([one.complete(id, sessionUser), two.complete(id, sessionUser)]);
    expect(a).toEqual(b);
    expect(a).toMatchObject({ size: data.length, contentType: 'application/pdf' });
    expect(stored).toEqual([id]);
    const [row] = await t.app.ctx.db.select().from(resumableUploads).where(eq(resumableUploads.id, id));
    expect(row).toMatchObject({ state: 'stored', result: a });
    // Asked again later, on either: the recorded result, nothing stored again.
    expect(await two.complete(id, sessionUser)).toEqual(a);
    expect(stored).toEqual([id]);
  });
});
