import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatIdFor, type ConversationRef } from '@studybuddy/shared/chat';
import type { CourseDocumentDto, DocumentDetailDto } from '@studybuddy/shared/documents-api';
import type { UploadedFile } from '@studybuddy/shared/files';
import { WS_CLOSE_QUOTA, type ServerFrame } from '@studybuddy/shared/realtime';
import { openDatabase, type Database } from '../db/connect.ts';
import { connections, jobs, resumableUploads, storedFiles } from '../db/schema.ts';
import { seedUser } from '../demo/seed-users.ts';
import { textPdf } from '../features/documents/test/fixtures.ts';
import { createS3Storage } from './storage/s3-storage.ts';
import { startLocalS3, type LocalS3 } from './storage/s3-test-server.ts';
import { WsTestClient } from './realtime/ws-test-client.ts';
import { startRoundRobinProxy, type RoundRobinProxy } from '../test/round-robin-proxy.ts';
import { spawnServer, type SpawnedServer } from '../test/spawn-server.ts';
import { freshPostgres } from '../test/test-app.ts';
import { logLines, tusMetadata, until } from '../test/spawned-logs.ts';

/**
 * Issue 14, several instances: three real servers (child processes) on one PostgreSQL database and one S3 bucket,
 * behind a proxy that sends each request and each WebSocket to the next instance. Nothing may depend on which
 * instance a request reaches: sign-in, resumable uploads, chat, the socket quota and document processing.
 */
const TUS = { 'Tus-Resumable': '1.0.0' };
const MB = 1024 * 1024;
const PASSWORD = 'password123';
const SOCKET_QUOTA = 2;
const OPEN_UPLOADS = 3;
const md5 = (data: Buffer) => createHash('md5').update(data).digest('base64');
describe.skipIf(!process.env.TEST_DATABASE_URL)('three instances behind a round-robin proxy', () => {
  let pgDb: NonNullable<Awaited<ReturnType<typeof freshPostgres>>>;
  let s3: LocalS3;
  let proxy: RoundRobinProxy;
  let database: Database;
  const dataDirs: string[] = [];
  let servers: SpawnedServer[] = [];
  const cookies: Record<'ada' | 'bob' | 'cleo', string> = { ada: '', bob: '', cleo: '' };
  const ids: Record<'ada' | 'bob', string> = { ada: '', bob: '' };
  let startedInMs = 0;

  const api = (url: string, init: RequestInit & { as?: keyof typeof cookies } = {}) =>
    fetch(`${proxy.url}${url}`, {
      ...init,
      headers: { ...(init.as ? { cookie: cookies[init.as] } : {}), ...(init.headers as Record<string, string>) },
    });
  const json = (body: unknown) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  /** Where the proxy sent the requests since `from` whose path contains `part`. */
  const backendsOf = (from: number, part: string, method?: string) =>
    proxy.routed
      .slice(from)
      .filter((r) => r.path.includes(part) && (!method || r.method === method))
      .map((r) => r.backend);

  const login = async (email: string) => {
    const res = await api('/api/auth/login', json({ email, password: PASSWORD }));
    expect(res.status).toBe(200);
    return res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
  };

  beforeAll(async () => {
    pgDb = (await freshPostgres())!;
    s3 = await startLocalS3();
    proxy = await startRoundRobinProxy();
    for (let i = 0; i < 3; i++) dataDirs.push(await mkdtemp(path.join(tmpdir(), `sb-instance-${i}-`)));
    const env = {
      DATABASE_URL: pgDb.url,
      ...s3.env,
      PUBLIC_URL: proxy.url,
      SECRET_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'info',
      QUOTA_SOCKETS: String(SOCKET_QUOTA),
      QUOTA_OPEN_UPLOADS: String(OPEN_UPLOADS),
      // The per-route limits too (spawned servers run without them unless asked).
      RATE_LIMITS: 'true',
    };
    // All three at once on the empty database: they must not race over its migrations.
    const started = Date.now();
    servers = await Promise.all(dataDirs.map((dataDir) => spawnServer({ dataDir, env })));
    startedInMs = Date.now() - started;
    proxy.backends.push(...servers.map((s) => s.port));

    database = await openDatabase({ databaseUrl: pgDb.url, dataDir: dataDirs[0]! });
    for (const name of ['ada', 'bob'] as const) {
      ids[name] = await seedUser(database.db, {
        email: `${name}.three@g.ucla.edu`,
        password: PASSWORD,
        name,
        courses: ['BIO 101'],
      });
    }
    await database.db.insert(connections).values([
      { userId: ids.ada, friendId: ids.bob },
      { userId: ids.bob, friendId: ids.ada },
    ]);
  }, 180_000);

  afterAll(async () => {
    await proxy?.close();
    await Promise.all(servers.map((s) => s.stop()));
    await database?.close();
    await pgDb?.drop();
    await s3?.close();
    await Promise.all(dataDirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('signs up, verifies and logs in with each step on another instance; the session holds on all three', async () => {
    expect(startedInMs).toBeGreaterThan(0);
    const from = proxy.routed.length;
    const email = 'cleo.three@g.ucla.edu';
    expect((await api('/api/auth/signup', json({ email, password: PASSWORD }))).status).toBe(201);

    // The verification mail sits in the outbox of whichever instance took the sign-up.
    const mail = await until(
      'the verification mail',
      async () => {
        for (const dir of dataDirs) {
          const outbox = path.join(dir, 'outbox');
          const names = (await readdir(outbox).catch(() => [] as string[])).filter((n) => n.includes('cleo.three'));
          if (names.length) return readFile(path.join(outbox, names[0]!), 'utf8');
        }
        return undefined;
      },
      10_000,
    );
    const text = mail
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    const oobCode = new URL(text.match(/https?:\/\/\S*oobCode=[^\s"<>]+/)![0]).searchParams.get('oobCode')!;
    expect((await api('/api/auth/verify-email', json({ oobCode }))).status).toBe(200);

    cookies.cleo = await login(email);
    cookies.ada = await login('ada.three@g.ucla.edu');
    cookies.bob = await login('bob.three@g.ucla.edu');
    for (let i = 0; i < 3; i++) {
      const session = (await (await api('/api/auth/session', { as: 'cleo' })).json()) as { user: { email: string } };
      expect(session.user.email).toBe(email);
    }
    expect(new Set(backendsOf(from, '/api/auth/session')).size).toBe(3);
    expect(new Set(backendsOf(from, '/api/auth/')).size).toBe(3);
  });

  it('chats with the two sockets on different instances: every message arrives once, acknowledged once', async () => {
    const from = proxy.routed.length;
    const ada = await WsTestClient.connect(proxy.url, cookies.ada);
    const bob = await WsTestClient.connect(proxy.url, cookies.bob);
    const isHello = (f: ServerFrame) => f.type === 'hello';
    await Promise.all([ada.waitFor(isHello), bob.waitFor(isHello)]);
    const [adaOn, bobOn] = backendsOf(from, '/api/ws');
    expect(adaOn).not.toBe(bobOn);

    const chat: ConversationRef = { kind: 'chat', id: chatIdFor(ids.ada, ids.bob) };
    const sent: string[] = [];
    const say = (client: WsTestClient, who: string, n: number) => {
      const id = randomUUID();
      sent.push(id);
      client.send({ op: 'send', conversation: chat, message: { id, type: 'text', content: `${who} ${n}` } });
    };
    for (let n = 1; n <= 5; n++) {
      say(ada, 'ada', n);
      say(bob, 'bob', n);
    }
    // One more over HTTP, through yet another instance.
    const httpId = randomUUID();
    sent.push(httpId);
    const posted = await api(`/api/chats/${encodeURIComponent(chat.id)}/messages`, {
      ...json({ id: httpId, type: 'text', content: 'over http' }),
      as: 'ada',
    });
    expect(posted.status).toBe(201);

    const created = (c: WsTestClient) => c.events.flatMap((e) => (e.type === 'message.created' ? [e.message.id] : []));
    const acks = (c: WsTestClient) => c.frames.flatMap((f) => (f.type === 'ack' ? [f.ref] : []));
    await until(
      'every message on both sockets',
      async () => ([ada, bob].every((c) => sent.every((id) => created(c).includes(id))) ? true : undefined),
      15_000,
    );
    // A last message from each side: anything doubled would have come before it (one bus, in commit order).
    const marks = [randomUUID(), randomUUID()];
    ada.send({ op: 'send', conversation: chat, message: { id: marks[0]!, type: 'text', content: 'end' } });
    bob.send({ op: 'send', conversation: chat, message: { id: marks[1]!, type: 'text', content: 'end' } });
    await until(
      'the last messages',
      async () => ([ada, bob].every((c) => marks.every((id) => created(c).includes(id))) ? true : undefined),
      10_000,
    );
    for (const c of [ada, bob]) {
      const seen = created(c);
      expect(seen.length).toBe(new Set(seen).size);
      expect(new Set(seen)).toEqual(new Set([...sent, ...marks]));
      expect(acks(c).length).toBe(new Set(acks(c)).size);
    }
    expect(acks(ada)).toHaveLength(6);
    expect(acks(bob)).toHaveLength(6);
    await Promise.all([ada.close(), bob.close()]);
  });

  it('counts a student’s sockets on all instances together (QUOTA_SOCKETS)', async () => {
    const from = proxy.routed.length;
    const open: WsTestClient[] = [];
    for (let i = 0; i < SOCKET_QUOTA; i++) {
      const c = await WsTestClient.connect(proxy.url, cookies.cleo);
      await c.waitFor((f) => f.type === 'hello');
      open.push(c);
    }
    const over = await WsTestClient.connect(proxy.url, cookies.cleo);
    const closed = await new Promise<number>((resolve) => over.ws.once('close', (code) => resolve(code)));
    expect(closed).toBe(WS_CLOSE_QUOTA);
    expect(new Set(backendsOf(from, '/api/ws')).size).toBe(3);

    // One closes: a place frees up, whichever instance the next socket reaches.
    await open.pop()!.close();
    const again = await until(
      'a socket admitted again',
      async () => {
        const c = await WsTestClient.connect(proxy.url, cookies.cleo);
        const hello = await c.waitFor((f) => f.type === 'hello', 2000).catch(() => null);
        if (hello) return c;
        await c.close();
        return undefined;
      },
      10_000,
    );
    await Promise.all([...open, again].map((c) => c.close()));
  });

  it('counts a per-route limit once on all instances together (Canvas connect: 10 a minute per student)', async () => {
    const from = proxy.routed.length;
    const LIMIT = 10;
    const statuses: number[] = [];
    // Refused by the body's schema, after the limit has counted them: no Canvas is asked.
    for (let i = 0; i <= LIMIT; i++) statuses.push((await api('/api/lms/connect', { ...json({}), as: 'cleo' })).status);
    expect(new Set(backendsOf(from, '/api/lms/connect')).size).toBe(3);
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(400), 429]);
    // Another student has a count of their own.
    expect((await api('/api/lms/connect', { ...json({}), as: 'bob' })).status).toBe(400);
  });

  const create = (size: number, meta: Record<string, string>, as: keyof typeof cookies = 'ada') =>
    api('/api/resumable', {
      method: 'POST',
      as,
      headers: { ...TUS, 'Upload-Length': String(size), 'Upload-Metadata': tusMetadata(meta) },
    });
  const patch = (url: string, offset: number, body: Buffer) =>
    api(url, {
      method: 'PATCH',
      as: 'ada',
      headers: { ...TUS, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
      body,
    });
  const head = async (url: string) =>
    Number((await api(url, { method: 'HEAD', as: 'ada', headers: TUS })).headers.get('upload-offset'));

  it('counts a student’s unfinished uploads on all instances together (QUOTA_OPEN_UPLOADS)', async () => {
    const from = proxy.routed.length;
    const meta = { target: 'course-document', courseId: 'seed-0', filename: 'draft.pdf' };
    const tries = await Promise.all(Array.from({ length: OPEN_UPLOADS + 1 }, () => create(1000, meta, 'bob')));
    expect(new Set(backendsOf(from, '/api/resumable', 'POST')).size).toBe(3);
    expect(tries.map((r) => r.status).sort()).toEqual([...Array<number>(OPEN_UPLOADS).fill(201), 429]);
    for (const made of tries.filter((r) => r.status === 201)) {
      const del = await api(made.headers.get('location')!, { method: 'DELETE', as: 'bob', headers: TUS });
      expect(del.status).toBe(204);
    }
    expect((await create(1000, meta, 'bob')).status).toBe(201);
  });

  it('uploads 12 MB with tus, each chunk on another instance, resumes through a third, and stores it once', async () => {
    const from = proxy.routed.length;
    const data = randomBytes(12 * MB + 4321);
    const made = await create(data.length, { target: 'course-document', courseId: 'seed-0', filename: 'big.bin' });
    expect(made.status).toBe(201);
    const url = made.headers.get('location')!;
    const id = url.split('/').pop()!;
    const CHUNK = 3 * MB;

    expect((await patch(url, 0, data.subarray(0, CHUNK))).status).toBe(204);
    // The same chunk sent twice at once (a client retrying on a dropped connection), to two instances: the shared
    // lock lets one write it; the other finds the offset moved on. Never both.
    const twice = await Promise.all([1, 2].map(() => patch(url, CHUNK, data.subarray(CHUNK, 2 * CHUNK))));
    expect(twice.filter((r) => r.status === 204).length).toBeLessThanOrEqual(1);
    // Where to go on, asked of yet another instance.
    let offset = await head(url);
    // All of the chunk, or (one write was cut short to hand the lock over) part of it: never more, never less.
    expect(offset).toBeGreaterThanOrEqual(CHUNK);
    expect(offset).toBeLessThanOrEqual(2 * CHUNK);
    let last: Response | undefined;
    while (offset < data.length) {
      last = await patch(url, offset, data.subarray(offset, offset + CHUNK));
      offset = Number(last.headers.get('upload-offset'));
      expect(last.status).toBe(offset < data.length ? 204 : 200);
    }
    const patchedOn = backendsOf(from, id, 'PATCH');
    expect(new Set(patchedOn).size).toBe(3);
    const { file } = (await last!.json()) as { file: UploadedFile };
    expect(file.md5Hash).toBe(md5(data));

    // A client whose last answer was lost asks other instances: the same file, never stored a second time.
    for (let i = 0; i < 2; i++) {
      const result = await api(`${url}/result`, { as: 'ada' });
      expect(((await result.json()) as { file: UploadedFile }).file).toEqual(file);
    }
    const repeat = await patch(url, data.length, Buffer.alloc(0));
    expect(((await repeat.json()) as { file: UploadedFile }).file).toEqual(file);
    const storedLines = servers.flatMap((s) =>
      logLines(s).filter((l) => l.msg === 'resumable upload stored' && l.upload === id),
    );
    expect(storedLines).toHaveLength(1);
    const [row] = await database.db.select().from(resumableUploads).where(eq(resumableUploads.id, id));
    expect(row).toMatchObject({ state: 'stored', size: data.length });
    expect(await database.db.select().from(storedFiles).where(eq(storedFiles.path, file.path))).toHaveLength(1);
    expect((await createS3Storage(s3.config).list('resumable')).filter((k) => k.includes(id))).toEqual([]);

    // Readable, byte for byte, through every instance.
    const readFrom = proxy.routed.length;
    for (let i = 0; i < 3; i++) {
      const res = await api(file.url, { as: 'ada' });
      expect(res.status).toBe(200);
      expect(md5(Buffer.from(await res.arrayBuffer()))).toBe(file.md5Hash);
    }
    expect(new Set(backendsOf(readFrom, file.path)).size).toBe(3);
  });

  it('processes a document uploaded across instances with one job, run once by one instance', async () => {
    const pdf = await textPdf([
      ['Photosynthesis turns light into chemical energy in the chloroplasts of plant cells.'],
      ['The light reactions make ATP and NADPH; the Calvin cycle fixes carbon dioxide into sugar.'],
    ]);
    const made = await create(pdf.length, { target: 'course-document', courseId: 'seed-0', filename: 'notes.pdf' });
    const url = made.headers.get('location')!;
    const third = Math.ceil(pdf.length / 3);
    let last: Response | undefined;
    for (let offset = 0; offset < pdf.length; offset += third) {
      last = await patch(url, offset, pdf.subarray(offset, offset + third));
    }
    expect(last!.status).toBe(200);
    const { file } = (await last!.json()) as { file: UploadedFile };
    const posted = await api('/api/documents', {
      ...json({ courseId: 'seed-0', path: file.path, name: 'notes.pdf' }),
      as: 'ada',
    });
    expect(posted.status).toBe(201);
    const { document } = (await posted.json()) as { document: CourseDocumentDto };

    const done = await until(
      'the document to be processed',
      async () => {
        const doc = (await (await api(`/api/documents/${document.id}`, { as: 'ada' })).json()) as DocumentDetailDto;
        return doc.status === 'done' || doc.status === 'failed' ? doc : undefined;
      },
      60_000,
    );
    expect(done.status).toBe('done');

    const rows = await database.db
      .select()
      .from(jobs)
      .where(sql`${jobs.dedupeKey} = ${`document:${document.id}`} or ${jobs.payload}->>'documentId' = ${document.id}`);
    expect(rows).toHaveLength(1);
    // The row (its last error, its worker) says why when it is not so.
    expect(rows[0], JSON.stringify(rows[0])).toMatchObject({ status: 'done', attempts: 1 });
    const jobId = rows[0]!.id;
    const workedOn = servers.map((s) => logLines(s).filter((l) => l.job === jobId));
    expect(workedOn.filter((lines) => lines.length > 0)).toHaveLength(1);
    const finished = workedOn.flat().filter((l) => l.msg === 'job finished');
    expect(finished).toHaveLength(1);
  });
});
