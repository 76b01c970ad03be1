import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { chatIdFor, type ConversationRef } from '@studybuddy/shared/chat';
import type { DocumentDetailDto } from '@studybuddy/shared/documents-api';
import { REALTIME_TIMING, WS_CLOSE_RESTART, type ServerFrame } from '@studybuddy/shared/realtime';
import { openDatabase } from '../db/connect.ts';
import { connections, documentPages, jobs, messages } from '../db/schema.ts';
import { PROCESS_JOB } from '../features/documents/document-processor.ts';
import { seedUser } from '../demo/seed-users.ts';
import { createSession, SESSION_COOKIE } from '../features/auth/session.ts';
import { scannedPdf } from '../features/documents/test/fixtures.ts';
import { formData } from '../features/documents/test/helpers.ts';
import { freePort, sleep, spawnServer, type SpawnedServer } from '../test/spawn-server.ts';
import { copyMigratedDatabase, freshPostgres } from '../test/test-app.ts';

/**
 * Issue 14, graceful shutdown and restart: the real server (src/main.ts) in its own process, students chatting
 * over WebSockets and HTTP, SIGTERM in the middle, a restart on the same data, and nothing lost or doubled.
 */

/** Messages each socket student types at most: every student's resync stays under REALTIME_TIMING.resyncMax. */
const TYPED_MAX = 120;
const TYPE_EVERY_MS = 30;
// Sixteen pages: the load builds up while they are read, and on a loaded machine eight were all read before the
// signal (the test then had no document in flight).
const TOPICS = ['cells', 'enzymes', 'membranes', 'proteins', 'genes', 'the lab', 'osmosis', 'mitosis'];
const PAGES = [
  ...Array.from({ length: 15 }, (_, i) => `Page ${i + 1} is about ${TOPICS[i % TOPICS.length]}.`),
  'The last page is about the quiz.',
];

async function until(what: string, ok: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

// The slow request's body waits for the document's second page before it ends: on a loaded machine that took
// longer than BODY_TIMEOUT's 20 s, and the body-rate rule (not the shutdown) answered 408.
const startServer = (dataDir: string, port: number, databaseUrl: string) =>
  spawnServer({ dataDir, port, env: { DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', BODY_TIMEOUT: '600' } });

/**
 * A browser tab as the web app behaves: one socket that reconnects with back-off and jitter, naming its last seen
 * cursor; an outbox of messages not acknowledged yet, each with the id the server stores it under, sent again
 * once the socket is back.
 */
class SocketStudent {
  ws: WebSocket | null = null;
  cursor: number | null = null;
  typed = 0;
  readonly outbox = new Map<string, string>();
  readonly typedTexts = new Map<string, string>();
  readonly acked = new Map<string, { created: boolean }>();
  readonly seen = new Set<string>();
  readonly closes: { code: number; reason: string }[] = [];
  readonly resyncs: { truncated: boolean }[] = [];
  readonly problems: string[] = [];
  hellos = 0;
  private attempt = 0;
  private stopped = false;

  constructor(
    readonly name: string,
    readonly cookie: string,
    readonly to: ConversationRef,
    private readonly baseUrl: string,
  ) {}

  connect(): void {
    if (this.stopped) return;
    const query = this.cursor === null ? '' : `?cursor=${this.cursor}`;
    const ws = new WebSocket(`${this.baseUrl.replace(/^http/, 'ws')}/api/ws${query}`, {
      headers: { cookie: this.cookie },
    });
    this.ws = ws;
    ws.on('message', (data) => this.onFrame(JSON.parse(data.toString()) as ServerFrame));
    ws.on('error', () => undefined);
    ws.on('close', (code, reason) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (code !== 1006 || reason.length) this.closes.push({ code, reason: reason.toString() });
      if (this.stopped) return;
      const base = Math.min(REALTIME_TIMING.backoffStartMs * 2 ** this.attempt, REALTIME_TIMING.backoffMaxMs);
      this.attempt += 1;
      setTimeout(() => this.connect(), base / 2 + Math.random() * (base / 2));
    });
  }

  get open(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  /** Types a new message: into the outbox, and onto the socket when it is open. */
  type(): void {
    if (this.typed >= TYPED_MAX) return;
    this.typed += 1;
    const id = randomUUID();
    const content = `${this.name} says ${this.typed}`;
    this.typedTexts.set(id, content);
    this.outbox.set(id, content);
    if (this.open) this.write(id);
  }

  /** As if these acknowledgements had been lost: the outbox sends the messages again (same ids). */
  loseAcks(ids: string[]): void {
    for (const id of ids) this.outbox.set(id, this.typedTexts.get(id)!);
    for (const id of ids) this.write(id);
  }

  stop(): void {
    this.stopped = true;
    this.ws?.close();
  }

  private write(id: string) {
    const content = this.outbox.get(id);
    if (content === undefined || !this.open) return;
    this.ws!.send(JSON.stringify({ op: 'send', conversation: this.to, message: { id, type: 'text', content } }));
  }

  private onFrame(frame: ServerFrame) {
    switch (frame.type) {
      case 'hello':
        this.hellos += 1;
        this.attempt = 0;
        this.cursor ??= frame.cursor;
        // The channel is back: the outbox goes out again, in order.
        for (const id of this.outbox.keys()) this.write(id);
        return;
      case 'event':
        if (frame.event.type === 'message.created') {
          this.seen.add(frame.event.message.id);
          this.cursor = Math.max(this.cursor ?? 0, frame.event.message.cursor);
        }
        return;
      case 'resync.done':
        this.cursor = Math.max(this.cursor ?? 0, frame.cursor);
        this.resyncs.push({ truncated: frame.truncated });
        return;
      case 'ack':
        this.outbox.delete(frame.ref);
        this.acked.set(frame.ref, { created: frame.created });
        return;
      case 'error':
        // Over the socket's rate: the outbox tries again shortly.
        if (frame.status === 429 && frame.ref) setTimeout(() => this.write(frame.ref!), 200);
        else this.problems.push(JSON.stringify(frame));
        return;
      case 'ping':
        this.ws?.send(JSON.stringify({ op: 'pong' }));
        return;
      default:
        return;
    }
  }
}

/** Posts messages over HTTP one after the other, as the web outbox does (a 503 or a dropped connection: again). */
class HttpStudent {
  readonly outbox = new Map<string, string>();
  readonly acked = new Map<string, { created: boolean }>();
  readonly statuses = new Map<number | string, number>();
  typed = 0;

  constructor(
    readonly cookie: string,
    readonly to: ConversationRef,
    private readonly baseUrl: () => string,
  ) {}

  async post(id: string): Promise<void> {
    let status: number | string;
    try {
      const res = await fetch(`${this.baseUrl()}/api/chats/${encodeURIComponent(this.to.id)}/messages`, {
        method: 'POST',
        headers: { cookie: this.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ id, type: 'text', content: this.outbox.get(id) }),
      });
      status = res.status;
      const body = (await res.json()) as { created?: boolean };
      if (res.ok) {
        this.outbox.delete(id);
        this.acked.set(id, { created: body.created === true });
      }
    } catch {
      status = 'connection failed';
    }
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
  }

  /** Types a message and posts what the outbox holds, in order; false when a post failed (try later). */
  async typeAndPost(): Promise<boolean> {
    this.typed += 1;
    this.outbox.set(randomUUID(), `over http ${this.typed}`);
    for (const id of [...this.outbox.keys()]) {
      await this.post(id);
      if (this.outbox.has(id)) return false;
    }
    return true;
  }
}

/** A request whose body is still arriving when the signal comes: it must be answered, not cut. */
function slowPost(port: number, cookie: string, to: ConversationRef, id: string) {
  const body = JSON.stringify({ id, type: 'text', content: 'sent while the server stops' });
  const req = httpRequest({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: `/api/chats/${encodeURIComponent(to.id)}/messages`,
    headers: { cookie, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const answered = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
  const half = Math.floor(body.length / 2);
  req.write(body.slice(0, half));
  return { answered, finish: () => req.end(body.slice(half)) };
}

describe('SIGTERM under chat load, then a restart on the same data', () => {
  let dataDir: string;
  let pgDb: Awaited<ReturnType<typeof freshPostgres>>;
  let server: SpawnedServer | undefined;
  const students: { id: string; cookie: string }[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sb-restart-'));
    pgDb = await freshPostgres();
    if (!pgDb) await copyMigratedDatabase(dataDir);
    const database = await openDatabase({ databaseUrl: pgDb?.url, dataDir });
    for (let i = 0; i < 3; i++) {
      const id = await seedUser(database.db, {
        email: `restart${i}@g.ucla.edu`,
        name: `Student ${i}`,
        courses: ['BIO 101'],
      });
      students.push({ id, cookie: `${SESSION_COOKIE}=${(await createSession(database.db, id)).token}` });
    }
    for (const a of students)
      for (const b of students)
        if (a !== b) await database.db.insert(connections).values({ userId: a.id, friendId: b.id });
    await database.close();
  });
  afterAll(async () => {
    await server?.kill();
    await pgDb?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('tells every socket to reconnect, finishes in-flight work, hands the document job back, exits 0 within 10 s, and loses nothing', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = await startServer(dataDir, port, pgDb?.url ?? '');
    const dbUrl = pgDb?.url;

    const chat = (a: number, b: number): ConversationRef => ({
      kind: 'chat',
      id: chatIdFor(students[a]!.id, students[b]!.id),
    });
    // A ring: 0 writes to 1, 1 to 2, 2 to 0; and 0 also posts to 1 over HTTP.
    const sockets = students.map((s, i) => new SocketStudent(`student ${i}`, s.cookie, chat(i, (i + 1) % 3), base));
    const http = new HttpStudent(students[0]!.cookie, chat(0, 1), () => base);

    // Student 2's scanned PDF is being read (OCR) when the signal comes.
    const docCookie = students[2]!.cookie;
    const getDoc = async (id: string) =>
      (await (
        await fetch(`${base}/api/documents/${id}`, { headers: { cookie: docCookie } })
      ).json()) as DocumentDetailDto;
    const pdf = await scannedPdf(PAGES.map((text) => [text]));
    const form = formData(
      { data: pdf, filename: 'eight pages.pdf', contentType: 'application/pdf' },
      { courseId: 'seed-0' },
    );
    const uploaded = await fetch(`${base}/api/upload-document`, {
      method: 'POST',
      headers: { ...form.headers, cookie: docCookie },
      body: form.payload,
    });
    expect(uploaded.status).toBe(201);
    const documentId = ((await uploaded.json()) as { document: { id: string } }).document.id;
    const ocrAt = async (page: number) => {
      for (;;) {
        const doc = await getDoc(documentId);
        expect(doc.status).not.toBe('done');
        if (doc.status === 'ocr' && (doc.progress?.page ?? 0) >= page) return;
        await sleep(25);
      }
    };
    await ocrAt(1);

    for (const s of sockets) s.connect();
    await until('every socket to open', () => sockets.every((s) => s.hellos === 1), 10_000);
    let typing = true;
    const typer = setInterval(() => sockets.forEach((s) => s.type()), TYPE_EVERY_MS);
    const httpLoop = (async () => {
      while (typing && http.typed < TYPED_MAX) {
        await sleep((await http.typeAndPost()) ? TYPE_EVERY_MS : 250);
      }
    })();

    try {
      await until('load to build up', () => sockets.every((s) => s.acked.size >= 20) && http.acked.size >= 10, 20_000);
      // Its headers are in well before the signal (routed, not refused); the rest of its body comes after it.
      const slowId = randomUUID();
      const slow = slowPost(port, students[1]!.cookie, chat(1, 2), slowId);
      await ocrAt(2);
      await sleep(300);

      const signalled = Date.now();
      server.child.kill('SIGTERM');
      const ackedBefore = sockets.map((s) => [...s.acked.keys()]);
      await sleep(500);
      slow.finish();
      expect(await slow.answered).toBe(201);
      const stopped = await server.exited;
      const shutdownMs = stopped.at - signalled;
      const stoppedLine = server
        .logs()
        .split('\n')
        .find((l) => l.includes('"msg":"stopped"'));
      const reported = stoppedLine ? (JSON.parse(stoppedLine) as { ms: number }).ms : undefined;
      const outboxAtShutdown = sockets.reduce((n, s) => n + s.outbox.size, 0) + http.outbox.size;
      expect({ code: stopped.code, signal: stopped.signal }, server.logs()).toEqual({ code: 0, signal: null });
      expect(shutdownMs).toBeLessThan(10_000);
      // Every tab was told the service restarts (not a dropped connection).
      for (const s of sockets) expect(s.closes[0]).toEqual({ code: WS_CLOSE_RESTART, reason: 'service restart' });

      // The document job went back to the queue without using an attempt, its finished pages kept.
      const between = await openDatabase({ databaseUrl: dbUrl, dataDir });
      const [handedBack] = await between.db.select().from(jobs).where(eq(jobs.kind, PROCESS_JOB));
      const pagesKept = await between.db.select().from(documentPages).where(eq(documentPages.documentId, documentId));
      await between.close();
      expect(handedBack).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null });
      // Usually a few pages; on a loaded machine the pages in flight at the signal (finished, not cut) can be the
      // rest of them (seen at load 11): the job is handed back all the same, and nothing is read twice below.
      expect(pagesKept.length).toBeGreaterThanOrEqual(1);
      expect(pagesKept.length).toBeLessThanOrEqual(PAGES.length);

      // Students keep typing while it is down; the tabs reconnect by themselves once it is back.
      const restarted = Date.now();
      server = await startServer(dataDir, port, dbUrl ?? '');
      const startMs = Date.now() - restarted;
      await until('every socket to come back', () => sockets.every((s) => s.hellos >= 2), 30_000);
      const reconnectMs = Date.now() - restarted;
      typing = false;
      clearInterval(typer);
      await httpLoop;
      for (const id of [...http.outbox.keys()]) await http.post(id);
      // Acknowledgements lost with the old connection: the same ids again, answered as already stored.
      const lost = sockets.map((s, i) => ackedBefore[i]!.slice(0, 5));
      sockets.forEach((s, i) => s.loseAcks(lost[i]!));

      await until('every outbox to empty', () => sockets.every((s) => s.outbox.size === 0), 20_000);
      expect(http.outbox.size).toBe(0);
      for (const [i, s] of sockets.entries()) {
        expect(s.problems).toEqual([]);
        expect(lost[i]!.map((id) => s.acked.get(id))).toEqual(lost[i]!.map(() => ({ created: false })));
        expect(s.resyncs.length).toBeGreaterThanOrEqual(1);
        expect(s.resyncs.every((r) => !r.truncated)).toBe(true);
      }

      // What each student should have heard: every message of its two chats.
      const ackedIds = [...sockets.flatMap((s) => [...s.acked.keys()]), ...http.acked.keys(), slowId];
      const heardBy = (i: number) => [
        ...sockets[i]!.acked.keys(),
        ...sockets[(i + 2) % 3]!.acked.keys(),
        ...(i === 0 || i === 1 ? http.acked.keys() : []),
        ...(i === 1 || i === 2 ? [slowId] : []),
      ];
      await until(
        'every message to reach its two students',
        () => sockets.every((s, i) => heardBy(i).every((id) => s.seen.has(id))),
        10_000,
      );

      // The document resumes at its first missing page and finishes.
      let doc = await getDoc(documentId);
      const resumedAt: number[] = [];
      while (doc.status !== 'done' && doc.status !== 'failed') {
        if (doc.progress && resumedAt[resumedAt.length - 1] !== doc.progress.page) resumedAt.push(doc.progress.page);
        await sleep(50);
        doc = await getDoc(documentId);
      }
      expect(doc.status).toBe('done');
      if (resumedAt.length) expect(resumedAt[0]).toBeGreaterThan(1);

      // A quiet second shutdown, then read what was stored.
      const second = Date.now();
      server.child.kill('SIGTERM');
      const quiet = await server.exited;
      expect(quiet.code).toBe(0);
      server = undefined;
      for (const s of sockets) s.stop();

      const database = await openDatabase({ databaseUrl: dbUrl, dataDir });
      const rows = await database.db
        .select({ id: messages.id, content: messages.content, conversationId: messages.conversationId })
        .from(messages)
        .where(inArray(messages.conversationId, [chat(0, 1).id, chat(1, 2).id, chat(2, 0).id]));
      // The document's job only: the daily jobs (schedules, matching, reminders) have rows of their own.
      const jobRows = await database.db.select().from(jobs).where(eq(jobs.kind, PROCESS_JOB));
      const pages = await database.db
        .select({ page: documentPages.page, text: documentPages.text })
        .from(documentPages)
        .where(eq(documentPages.documentId, documentId))
        .orderBy(documentPages.page);
      await database.close();

      expect(jobRows).toHaveLength(1);
      expect(jobRows[0]).toMatchObject({ status: 'done', attempts: 1 });
      expect(pages.map((p) => p.page)).toEqual(PAGES.map((_, i) => i + 1));
      expect(pages[PAGES.length - 1]!.text).toContain('last page');

      const stored = new Map<string, number>();
      for (const r of rows) stored.set(r.id, (stored.get(r.id) ?? 0) + 1);
      const texts = new Map<string, number>();
      for (const r of rows)
        texts.set(`${r.conversationId}|${r.content}`, (texts.get(`${r.conversationId}|${r.content}`) ?? 0) + 1);
      // Every acknowledged message exactly once (those acknowledged before the signal among them, and the slow
      // request's), and no copy under another id.
      for (const id of ackedIds) expect(stored.get(id), id).toBe(1);
      for (const before of ackedBefore) for (const id of before) expect(stored.get(id)).toBe(1);
      expect(rows.length).toBe(ackedIds.length);
      expect([...texts.values()].every((n) => n === 1)).toBe(true);
      for (const [i, s] of sockets.entries()) {
        const mine = rows.filter(
          (r) => r.conversationId === chat(i, (i + 1) % 3).id || r.conversationId === chat((i + 2) % 3, i).id,
        );
        expect(mine.filter((r) => !s.seen.has(r.id))).toEqual([]);
      }

      const alreadyStored = [...sockets.flatMap((s) => [...s.acked.values()]), ...http.acked.values()].filter(
        (a) => !a.created,
      ).length;
      console.log(
        `graceful restart: ${ackedIds.length} messages; shutdown under chat load with OCR running took ${shutdownMs} ms (${reported} ms by its own log) ` +
          `(${outboxAtShutdown} unacknowledged at the signal; ${alreadyStored} resends answered as already stored, ` +
          `${lost.flat().length} of them on purpose); document handed back with ${pagesKept.length} of ${PAGES.length} ` +
          `pages kept, resumed at ${resumedAt[0] ?? '-'}; the quiet shutdown took ${quiet.at - second} ms; the restarted ` +
          `server answered after ${startMs} ms and the sockets were back after ${reconnectMs} ms; HTTP statuses: ` +
          JSON.stringify(Object.fromEntries(http.statuses)),
      );
    } finally {
      typing = false;
      clearInterval(typer);
      for (const s of sockets) s.stop();
    }
    // A limit for a hung server, not a speed: 124 s on PostgreSQL on a quiet 2-core EPYC at 2.1 GHz (issue 32).
  }, 480_000);
});
