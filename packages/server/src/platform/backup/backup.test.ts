import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filePathOfUrl, type UploadedFile } from '@studybuddy/shared/files';
import type { OwnProfile } from '@studybuddy/shared/session';
import { buildApp, type App } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { profiles, users } from '../../db/schema.ts';
import { captureMail, logIn, signUpVerified } from '../../features/auth/auth-test-helpers.ts';
import { jpegWithGps, uploadDirect } from '../../features/files/upload-test-helpers.ts';
import { copyMigratedDatabase } from '../../test/test-app.ts';
import { createUser } from '../../test/users.ts';
import { adminToken, BACKUP_ROUTE, serverFile } from './admin-access.ts';
import { backupCli as cli } from './backup.test-kit.ts';
import { restoreArchive } from './restore.ts';
import { endOfArchive, fileHeader, padding, readTar } from './tar.ts';

async function startApp(dataDir: string, listen: boolean) {
  const mail = captureMail();
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://localhost:3000' });
  const app = await buildApp(config, { logger: false, mailer: mail });
  if (listen) await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, mail };
}

async function tarEntries(archive: string): Promise<Map<string, Buffer>> {
  const entries = new Map<string, Buffer>();
  await readTar(
    (async function* () {
      yield gunzipSync(await readFile(archive));
    })(),
    (name) => {
      const parts: Buffer[] = [];
      return { write: (c) => void parts.push(c), end: () => void entries.set(name, Buffer.concat(parts)) };
    },
  );
  return entries;
}

function packTar(entries: Map<string, Buffer>): Buffer {
  const blocks: Buffer[] = [];
  for (const [name, data] of entries) blocks.push(fileHeader(name, data.length), data, padding(data.length));
  blocks.push(endOfArchive());
  return gzipSync(Buffer.concat(blocks));
}

const sha256 = async (file: string) => {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
};

describe.skipIf(!!process.env.TEST_DATABASE_URL)('backup and restore of the embedded installation', () => {
  const email = 'ada.backup@g.ucla.edu';
  const password = 'analytical-engine-1843';
  let work: string;
  let dirA: string;
  let a: App;
  let restored: App | undefined;
  let archive: string;
  let picture: UploadedFile;
  let pictureBytes: Buffer;

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'sb-backup-'));
    dirA = path.join(work, 'a');
    archive = path.join(work, 'backup.tar.gz');
    await copyMigratedDatabase(dirA);
    const started = await startApp(dirA, true);
    a = started.app;
    await signUpVerified(a, started.mail, email, password);
    const cookie = await logIn(a, email, password);
    picture = (await uploadDirect(a, cookie, await jpegWithGps(320, 240))).json<{ file: UploadedFile }>().file;
    const saved = await a.inject({
      method: 'PUT',
      url: '/api/profile',
      headers: { cookie },
      payload: { name: 'Ada Lovelace', major: 'Mathematics', year: 'Senior', courses: [], profilePicture: picture.url },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    pictureBytes = (await a.inject({ method: 'GET', url: picture.url, headers: { cookie } })).rawPayload;
    expect(pictureBytes.length).toBe(picture.size);
  });
  afterAll(async () => {
    await a?.close();
    await restored?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('the backup endpoint answers only local, unproxied callers with the token of the secret key', async () => {
    expect(existsSync(serverFile(dirA))).toBe(true);
    const token = `Bearer ${adminToken(a.ctx.config.secretKey)}`;
    const refused = [
      await a.inject({ method: 'POST', url: BACKUP_ROUTE }),
      await a.inject({ method: 'POST', url: BACKUP_ROUTE, headers: { authorization: `Bearer ${'x'.repeat(43)}` } }),
      await a.inject({
        method: 'POST',
        url: BACKUP_ROUTE,
        headers: { authorization: token },
        remoteAddress: '203.0.113.9',
      }),
      await a.inject({
        method: 'POST',
        url: BACKUP_ROUTE,
        headers: { authorization: token, 'x-forwarded-for': '203.0.113.9' },
      }),
    ];
    for (const res of refused) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('forbidden');
    }
  });

  it('backs up while the server serves writes, and the restore into a new data dir serves the student and file', async () => {
    // Light concurrent writes: students with an uploaded profile picture, one after another.
    const written: string[] = [];
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const u = await createUser(a, { email: `writer${i}@g.ucla.edu` });
        const up = (await uploadDirect(a, u.cookie, await jpegWithGps(64 + (i % 50), 48))).json<{
          file: UploadedFile;
        }>();
        await a.ctx.db
          .update(profiles)
          .set({ profilePicture: up.file.url, hasCustomProfilePicture: true })
          .where(eq(profiles.userId, u.id));
        written.push(u.email);
      }
    })();
    while (written.length < 2) await new Promise((r) => setTimeout(r, 20));
    const before = written.length;

    const backup = await cli('backup', ['--out', archive], { DATA_DIR: dirA, INIT_CWD: work });
    const during = written.length - before;
    writing = false;
    await writer;
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/made by the running server \(pid \d+\)/);
    expect(during).toBeGreaterThan(0);
    console.log(`${backup.stdout.trim()}\n  (${during} students written during the backup)`);

    const dirB = path.join(work, 'b');
    const restore = await cli('restore', [archive, '--data-dir', dirB]);
    expect(restore.code, restore.stderr).toBe(0);
    console.log(restore.stdout.trim());

    restored = (await startApp(dirB, false)).app;
    expect(restored.ctx.config.secretKey).toBe(a.ctx.config.secretKey);
    const cookie = await logIn(restored, email, password);
    const profile = (
      await restored.inject({ method: 'GET', url: '/api/profile', headers: { cookie } })
    ).json<OwnProfile>();
    expect(profile).toMatchObject({ name: 'Ada Lovelace', profilePicture: picture.url });
    const file = await restored.inject({ method: 'GET', url: picture.url, headers: { cookie } });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(pictureBytes)).toBe(true);

    // Every student written before the backup began is there, and every picture the database names exists.
    const emails = new Set((await restored.ctx.db.select({ email: users.email }).from(users)).map((u) => u.email));
    for (const e of written.slice(0, before)) expect(emails.has(e)).toBe(true);
    const pictures = await restored.ctx.db
      .select({ url: profiles.profilePicture })
      .from(profiles)
      .where(eq(profiles.hasCustomProfilePicture, true));
    const stored = pictures.map((p) => filePathOfUrl(p.url)).filter((p) => p !== null);
    expect(stored.length).toBeGreaterThan(before);
    for (const p of stored) expect(await restored.ctx.storage.head(p), p).not.toBeNull();
  });

  it('refuses a damaged archive and leaves the target untouched', async () => {
    const entries = await tarEntries(archive);
    const jpeg = [...entries.keys()].find((n) => n.startsWith('files/') && n.endsWith('.jpg'))!;
    const tampered = Buffer.from(entries.get(jpeg)!);
    const at = tampered.length >> 1;
    tampered.writeUInt8(tampered.readUInt8(at) ^ 0xff, at);
    entries.set(jpeg, tampered);
    const changed = path.join(work, 'tampered.tar.gz');
    await writeFile(changed, packTar(entries));

    const target = path.join(work, 'c');
    const run = await cli('restore', [changed, '--data-dir', target]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Restore refused: The archive was not restored: checksum mismatch for "${jpeg}"`);
    expect(existsSync(target)).toBe(false);

    entries.delete('manifest.json');
    await writeFile(changed, packTar(entries));
    await expect(restoreArchive({ archive: changed, dataDir: target })).rejects.toThrow(/has no manifest\.json/);

    const bytes = await readFile(archive);
    bytes.writeUInt8(bytes.readUInt8(bytes.length >> 1) ^ 0xff, bytes.length >> 1);
    const flipped = path.join(work, 'flipped.tar.gz');
    await writeFile(flipped, bytes);
    await expect(restoreArchive({ archive: flipped, dataDir: target })).rejects.toThrow(
      /The archive was not restored: .*(damaged|checksum|tar)/,
    );
    expect(existsSync(target)).toBe(false);
  });

  it('refuses a data dir in use or not empty; --force replaces database, files and key', async () => {
    const keyBefore = await sha256(path.join(dirA, 'secret.key'));
    await expect(restoreArchive({ archive, dataDir: dirA, force: true })).rejects.toThrow(
      /A server \(pid \d+\) is using .*stop it before restoring/,
    );
    expect(await sha256(path.join(dirA, 'secret.key'))).toBe(keyBefore);

    const other = path.join(work, 'other');
    await mkdir(path.join(other, 'files', 'objects'), { recursive: true });
    await mkdir(path.join(other, 'outbox'));
    await writeFile(path.join(other, 'secret.key'), 'k'.repeat(40));
    await writeFile(path.join(other, 'files', 'objects', 'stale.txt'), 'stale');
    await writeFile(path.join(other, 'outbox', 'sent.eml'), 'mail');
    const notEmpty = await cli('restore', [archive, '--data-dir', other]);
    expect(notEmpty.code).toBe(1);
    expect(notEmpty.stderr).toContain(`Restore refused: ${other} is not empty.`);
    expect(notEmpty.stderr).toContain('add --force');
    expect(await readFile(path.join(other, 'secret.key'), 'utf8')).toBe('k'.repeat(40));

    await restoreArchive({ archive, dataDir: other, force: true });
    expect((await readFile(path.join(other, 'secret.key'), 'utf8')).trim()).toBe(a.ctx.config.secretKey);
    expect(existsSync(path.join(other, 'files', 'objects', 'stale.txt'))).toBe(false);
    expect(existsSync(path.join(other, 'files', 'objects', ...picture.path.split('/')))).toBe(true);
    expect(existsSync(path.join(other, 'db', 'PG_VERSION'))).toBe(true);
    expect(existsSync(path.join(other, 'outbox', 'sent.eml'))).toBe(true);
    expect((await readdir(other)).filter((n) => n.startsWith('.restore-'))).toEqual([]);
  });
});
