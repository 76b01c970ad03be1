import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentDetailDto } from '@studybuddy/shared/documents-api';
import type { UploadedFile } from '@studybuddy/shared/files';
import { openDatabase, type Database } from '../db/connect.ts';
import { documentPages, jobs, resumableUploads, storedFiles } from '../db/schema.ts';
import { seedUser } from '../demo/seed-users.ts';
import { createSession, SESSION_COOKIE } from '../features/auth/session.ts';
import { scannedPdf } from '../features/documents/test/fixtures.ts';
import { formData } from '../features/documents/test/helpers.ts';
import { spawnServer, type SpawnedServer } from '../test/spawn-server.ts';
import { streamingPatch } from '../test/streaming-patch.ts';
import { freshPostgres } from '../test/test-app.ts';
import { logLines, tusMetadata, until } from '../test/spawned-logs.ts';
import { createS3Storage } from './storage/s3-storage.ts';
import { startLocalS3, type LocalS3 } from './storage/s3-test-server.ts';

/**
 * Issue 31 point 5: of three instances on one PostgreSQL database and one S3 bucket, one is killed (SIGKILL, no
 * goodbye) in the middle of a student's resumable upload, and another in the middle of processing a document. The
 * upload continues on another instance from where the bucket says it stands and is stored once, byte for byte; the
 * document's job is taken over once its lease runs out, by one instance, from the page it had reached.
 */
const TUS = { 'Tus-Resumable': '1.0.0' };
const MB = 1024 * 1024;
const md5 = (data: Buffer) => createHash('md5').update(data).digest('base64');
describe.skipIf(!process.env.TEST_DATABASE_URL)('an instance dies mid-upload and mid-document', () => {
  let pgDb: NonNullable<Awaited<ReturnType<typeof freshPostgres>>>;
  let s3: LocalS3;
  let database: Database;
  const dataDirs: string[] = [];
  let servers: SpawnedServer[] = [];
  let cookie = '';

  beforeAll(async () => {
    pgDb = (await freshPostgres())!;
    s3 = await startLocalS3();
    for (let i = 0; i < 3; i++) dataDirs.push(await mkdtemp(path.join(tmpdir(), `sb-dying-${i}-`)));
    const env = { DATABASE_URL: pgDb.url, ...s3.env, SECRET_KEY: randomBytes(32).toString('hex'), LOG_LEVEL: 'info' };
    servers = await Promise.all(dataDirs.map((dataDir) => spawnServer({ dataDir, env })));
    database = await openDatabase({ databaseUrl: pgDb.url, dataDir: dataDirs[0]! });
    const id = await seedUser(database.db, { email: 'dana.dying@g.ucla.edu', courses: ['BIO 101'] });
    cookie = `${SESSION_COOKIE}=${(await createSession(database.db, id)).token}`;
  }, 180_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await database?.close();
    await pgDb?.drop();
    await s3?.close();
    await Promise.all(dataDirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  const on = (server: SpawnedServer, url: string, init: RequestInit = {}) =>
    fetch(`${server.base}${url}`, { ...init, headers: { cookie, ...(init.headers as Record<string, string>) } });

  // On a busy machine the instance often dies while it is sending a part to the bucket: the test's S3 store (and
  // compose's) then kept a cut part that broke every later ListParts, so the survivor answered 503 (issue 31,
  // fixed in s3rver-store.ts; s3rver-store.test.ts holds it without timing).
  it('continues a resumable upload on another instance after the one receiving it was killed, storing it once', async () => {
    const [dying, next, third] = servers as [SpawnedServer, SpawnedServer, SpawnedServer];
    const data = randomBytes(20 * MB + 4321);
    const made = await on(dying, '/api/resumable', {
      method: 'POST',
      headers: {
        ...TUS,
        'Upload-Length': String(data.length),
        'Upload-Metadata': tusMetadata({ target: 'course-document', courseId: 'seed-0', filename: 'thesis.pdf' }),
      },
    });
    expect(made.status).toBe(201);
    const url = made.headers.get('location')!;
    const id = url.split('/').pop()!;
    const patch = (server: SpawnedServer, offset: number, body: Buffer) =>
      on(server, url, {
        method: 'PATCH',
        headers: { ...TUS, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
        body,
      });
    const first = 6 * MB;
    expect((await patch(dying, 0, data.subarray(0, first))).status).toBe(204);

    // The next chunk is on its way (past one whole 8 MB part of the bucket) when its instance dies.
    let sent = 0;
    const cut = streamingPatch(`${dying.base}${url}`, cookie, first, data.subarray(first), (n) => (sent = n), 30);
    await until('10 MB of the chunk sent', async () => (sent >= 10 * MB ? true : undefined), 60_000);
    await dying.kill();
    expect(await cut).toBe(0);

    // Another instance says where to go on, once the dead one's lock has run out; nothing past what was sent.
    const asked = performance.now();
    const head = await on(next, url, { method: 'HEAD', headers: TUS });
    const waitedMs = performance.now() - asked;
    expect(
      head.status,
      `${waitedMs} ms: ${await head.text()} ${next
        .logs()
        .split('\n')
        .filter((l) => /"level":(40|50)/.test(l))
        .join('\n')
        .slice(0, 3000)}`,
    ).toBe(200);
    let offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThanOrEqual(first);
    expect(offset).toBeLessThanOrEqual(first + sent);
    expect(waitedMs).toBeLessThan(30_000);

    let file: UploadedFile | undefined;
    let refusals = 0;
    for (let i = 0; offset < data.length; i++) {
      const last = await patch(i % 2 ? third : next, offset, data.subarray(offset, offset + 4 * MB));
      if (last.status === 503 && refusals++ < 3) {
        // The store was slow to answer on a busy machine (a clear 503): a tus client asks where it stands and goes on.
        offset = Number((await on(next, url, { method: 'HEAD', headers: TUS })).headers.get('upload-offset'));
        continue;
      }
      expect([204, 200], `PATCH at ${offset}: ${last.status} ${await last.clone().text()}`).toContain(last.status);
      if (last.status === 200) file = ((await last.json()) as { file: UploadedFile }).file;
      offset = Number(last.headers.get('upload-offset'));
    }
    // Every byte is in, but the last PATCH's answer may have been such a refusal (storing the file timed out): the
    // web app then asks for the result, which stores the file now if need be.
    if (!file) {
      const result = await on(third, `${url}/result`);
      expect(result.status, await result.clone().text()).toBe(200);
      file = ((await result.json()) as { file: UploadedFile }).file;
    }
    expect(file.md5Hash).toBe(md5(data));
    const download = await on(third, file.url);
    expect(md5(Buffer.from(await download.arrayBuffer()))).toBe(md5(data));

    const stored = servers.flatMap((s) =>
      logLines(s).filter((l) => l.msg === 'resumable upload stored' && l.upload === id),
    );
    expect(stored).toHaveLength(1);
    const [row] = await database.db.select().from(resumableUploads).where(eq(resumableUploads.id, id));
    expect(row).toMatchObject({ state: 'stored', size: data.length });
    expect(await database.db.select().from(storedFiles).where(eq(storedFiles.path, file.path))).toHaveLength(1);
    // Nothing of it is left staged in the bucket (the dead instance's unfinished part included).
    expect((await createS3Storage(s3.config).list('resumable')).filter((k) => k.includes(id))).toEqual([]);
  }, 240_000);

  it('takes over the document job of an instance killed mid-OCR once, from the page it reached', async () => {
    // Two or three: the test above kills one where it runs.
    const alive = servers.filter((s) => !s.ended());
    expect(alive.length).toBeGreaterThanOrEqual(2);
    const pdf = await scannedPdf([
      ['Page one says cells are small.'],
      ['Page two says enzymes are proteins.'],
      ['Page three says the quiz is on Monday.'],
      ['Page four says the lab is on Friday.'],
    ]);
    const body = formData(
      { data: pdf, filename: 'four pages.pdf', contentType: 'application/pdf' },
      { courseId: 'seed-0' },
    );
    const res = await on(alive[0]!, '/api/upload-document', {
      method: 'POST',
      headers: body.headers,
      body: body.payload,
    });
    expect(res.status).toBe(201);
    const { document } = (await res.json()) as { document: { id: string } };
    const get = async (server: SpawnedServer) =>
      (await (await on(server, `/api/documents/${document.id}`)).json()) as DocumentDetailDto;

    // Kill whichever instance runs the job once page 1 is stored and OCR is on page 2.
    const jobRow = async () =>
      (
        await database.db
          .select()
          .from(jobs)
          .where(eq(jobs.dedupeKey, `document:${document.id}`))
      )[0] ?? (await database.db.select().from(jobs)).find((j) => JSON.stringify(j.payload).includes(document.id));
    await until(
      'OCR on page 2',
      async () => {
        const doc = await get(alive[0]!);
        expect(doc.status).not.toBe('done');
        return doc.status === 'ocr' && (doc.progress?.page ?? 0) >= 2 ? true : undefined;
      },
      120_000,
    );
    const running = (await jobRow())!;
    const pid = Number(running.lockedBy?.split(':')[1]);
    const holder = alive.find((s) => s.pid === pid)!;
    expect(holder, `the job is held by ${running.lockedBy}`).toBeDefined();
    const survivor = alive.find((s) => s !== holder)!;
    await holder.kill();

    const seen: string[] = [];
    const done = await until(
      'the document to be done',
      async () => {
        const doc = await get(survivor);
        const label = doc.progress ? `ocr ${doc.progress.page}` : doc.status;
        if (seen[seen.length - 1] !== label) seen.push(label);
        return doc.status === 'done' || doc.status === 'failed' ? doc : undefined;
      },
      180_000,
    );
    expect(done.status).toBe('done');
    expect(seen).not.toContain('ocr 1'); // page 1 was not read again

    const row = (await jobRow())!;
    expect(row, JSON.stringify(row)).toMatchObject({ status: 'done', attempts: 2 });
    const finished = servers.flatMap((s) =>
      logLines(s)
        .filter((l) => l.job === row.id && l.msg === 'job finished')
        .map(() => s.pid),
    );
    expect(finished).toEqual([survivor.pid]);
    const pages = await database.db
      .select()
      .from(documentPages)
      .where(eq(documentPages.documentId, document.id))
      .orderBy(asc(documentPages.page));
    expect(pages.map((p) => p.page)).toEqual([1, 2, 3, 4]);
    expect(pages[3]!.text).toContain('lab is on Friday');
  }, 360_000);
});
