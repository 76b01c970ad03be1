// Issue 31 case 3: the data disk (DATA_DIR: PGlite and the local files) fills up under a running server, then gets
// room again. Needs root (a small tmpfs is mounted) and the PGlite leg (on PostgreSQL the database is elsewhere).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, open, readFile, rm, rmdir, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MSG } from '@studybuddy/shared/messages';
import { openDatabase } from '../db/connect.ts';
import { chatRef, friends, history, pngBytes, post } from '../features/chat/chat.test-kit.ts';
import { uploadDirect } from '../features/files/upload-test-helpers.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { createFsStorage } from './storage/fs-storage.ts';

const canMount = process.getuid?.() === 0 && !process.env.TEST_DATABASE_URL;
const full = { error: { code: 'disk_full', message: MSG.faults.diskFull } };

/** Writes zeros into `file` until the disk refuses, down to its last block. */
async function fill(file: string): Promise<void> {
  const handle = await open(file, 'w');
  const chunk = Buffer.alloc(1024 * 1024);
  try {
    for (let size = chunk.length; size >= 512; ) {
      try {
        await handle.write(chunk.subarray(0, size));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
        size /= 2;
      }
    }
  } finally {
    await handle.close();
  }
}

describe('the room kept free is a setting (DISK_MIN_FREE_MB, issue 31)', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('refuses writes while DATA_DIR has less free than the setting asks, and not below it', async () => {
    const fs = await statfs(tmpdir());
    const freeMb = Math.floor((fs.bavail * fs.bsize) / 1024 / 1024);
    const login = (app: TestApp['app']) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { origin: 'http://localhost:3000' },
        payload: { email: 'nobody@g.ucla.edu', password: 'password123' },
      });
    // Before: the floor was a fixed 64 MB, whatever the setting said.
    t = await createTestApp({ DISK_MIN_FREE_MB: String(freeMb + 1024) });
    const refused = await login(t.app);
    expect(refused.statusCode).toBe(507);
    expect(refused.json()).toEqual(full);
    await t.close();
    t = await createTestApp({ DISK_MIN_FREE_MB: '1' });
    expect((await login(t.app)).statusCode).toBe(401);
  });
});

describe.skipIf(!canMount)('the data disk full and freed again (issue 31 case 3)', () => {
  let dir: string | undefined;
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close().catch(() => undefined);
    if (dir) {
      execFileSync('umount', ['-l', dir]);
      await rmdir(dir);
    }
    t = dir = undefined;
  });

  it('refuses new writes with a clear 507, keeps what is stored readable, writes again once there is room, nothing corrupt', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'sb-disk-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=128m', 'tmpfs', dir]);
    t = await createTestApp({ DATA_DIR: dir });
    const [a, b] = await friends(t.app, 2);
    const ref = chatRef(a, b);
    expect((await post(t.app, a, ref, { content: 'before' })).statusCode).toBe(201);
    const stored = await uploadDirect(t.app, a.cookie, await pngBytes(), { filename: 'a.png', type: 'image/png' });
    expect(stored.statusCode).toBe(201);
    const file = stored.json<{ file: { url: string; path: string; size: number } }>().file;

    const filler = path.join(dir, 'filler');
    await fill(filler);
    const message = await post(t.app, a, ref, { content: 'while full' });
    expect(message.statusCode).toBe(507);
    expect(message.json()).toEqual(full);
    const upload = await uploadDirect(t.app, a.cookie, await pngBytes(80, 60), {
      filename: 'b.png',
      type: 'image/png',
    });
    expect(upload.statusCode).toBe(507);
    expect(upload.json()).toEqual(full);
    expect(upload.headers['retry-after']).toBe('2');
    // What is stored stays readable.
    const read = await history(t.app, b, ref);
    expect(read.statusCode).toBe(200);
    expect(JSON.stringify(read.json())).toContain('before');
    const download = await t.app.inject({ url: file.url, headers: { cookie: a.cookie } });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.length).toBe(file.size);

    await rm(filler);
    const after = await post(t.app, a, ref, { content: 'after' });
    expect(after.statusCode).toBe(201);
    expect((await t.app.inject({ url: '/api/health/ready' })).statusCode).toBe(200);
    await t.close();
    t = undefined;

    // Nothing corrupt: PGlite opens with every acknowledged message, the stored file matches its hash.
    const database = await openDatabase({ dataDir: dir });
    try {
      const rows = (await database.db.execute('select content from messages order by cursor')) as unknown as {
        rows: { content: string }[];
      };
      expect(rows.rows.map((r) => r.content)).toEqual(['before', 'after']);
    } finally {
      await database.close();
    }
    const storage = createFsStorage(path.join(dir, 'files'));
    const meta = await storage.head(file.path);
    const bytes = await readFile(storage.localFile!(file.path));
    expect(createHash('md5').update(bytes).digest('base64')).toBe(meta?.md5Hash);
  });
});
