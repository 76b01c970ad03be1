import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ChatMessage, ConversationRef, MessagePage } from '@studybuddy/shared/chat';
import type { ServerFrame } from '@studybuddy/shared/realtime';
import { SERVER_COMMAND } from './server-command.ts';
import { freePort } from './server.ts';

/**
 * Acceptance 5: kill -9 the server while clients send; after a restart on the same data, every acknowledged
 * message is in the database exactly once, and the clients resync to exactly the stored messages.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const USERS = ['ana', 'bo', 'cy', 'di'].map((n) => `${n}.fault@g.ucla.edu`);
const PER_CLIENT = 40;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class ServerProcess {
  child: ChildProcess | null = null;
  logs: string[] = [];
  constructor(
    readonly url: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  async start() {
    const child = spawn(process.execPath, SERVER_COMMAND.main, {
      cwd: root,
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => this.logs.push(d.toString()));
    child.stderr!.on('data', (d: Buffer) => this.logs.push(d.toString()));
    this.child = child;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server exited:\n${this.logs.join('')}`);
      if (
        await fetch(`${this.url}/api/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return;
      await sleep(100);
    }
    throw new Error('server did not start');
  }

  async kill9() {
    const child = this.child!;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }

  async stop() {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(5000)]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

/** A client as the web app behaves: sends with retries under one id, listens on the socket, resyncs after drops. */
class Client {
  cookie = '';
  readonly acked = new Set<string>();
  /** Messages as the client holds them (by id), and how often each arrived over the socket. */
  readonly held = new Map<string, ChatMessage>();
  readonly arrivals = new Map<string, number>();
  cursor: number | null = null;
  resyncs = 0;
  /** How often its socket closed (the server went away or refused it). */
  drops = 0;
  private ws: WebSocket | null = null;
  private closed = false;

  constructor(
    readonly email: string,
    private readonly url: string,
  ) {}

  async login() {
    const res = await fetch(`${this.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: this.url },
      body: JSON.stringify({ email: this.email, password: 'password123' }),
    });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('sb_session='));
    if (!res.ok || !cookie) throw new Error(`login failed: ${res.status}`);
    this.cookie = cookie.split(';')[0]!;
  }

  async api<T>(method: string, p: string, body?: unknown): Promise<{ status: number; data: T }> {
    const res = await fetch(`${this.url}${p}`, {
      method,
      headers: { cookie: this.cookie, origin: this.url, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, data: (await res.json().catch(() => null)) as T };
  }

  connect() {
    if (this.closed) return;
    // Reconnecting: the last seen cursor in the address makes the server resync first.
    const query = this.cursor === null ? '' : `?cursor=${this.cursor}`;
    if (this.cursor !== null) this.resyncs += 1;
    const ws = new WebSocket(`${this.url.replace('http', 'ws')}/api/ws${query}`, { headers: { cookie: this.cookie } });
    this.ws = ws;
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as ServerFrame;
      if (frame.type === 'hello' && this.cursor === null) this.cursor = frame.cursor;
      if (frame.type === 'resync.done') this.cursor = Math.max(this.cursor ?? 0, frame.cursor);
      if (frame.type === 'event' && frame.event.type === 'message.created') {
        const m = frame.event.message;
        this.held.set(m.id, m);
        this.arrivals.set(m.id, (this.arrivals.get(m.id) ?? 0) + 1);
        this.cursor = Math.max(this.cursor ?? 0, m.cursor);
      }
    });
    ws.on('error', () => undefined);
    ws.on('close', () => {
      this.drops += 1;
      if (!this.closed) setTimeout(() => this.connect(), 100);
    });
  }

  /** Sends one message until acknowledged (same id every time), then records the acknowledgement. */
  async send(ref: ConversationRef, content: string) {
    const id = randomUUID();
    const base = `/api/${ref.kind === 'chat' ? 'chats' : 'groups'}/${ref.id}/messages`;
    for (;;) {
      try {
        const res = await this.api<{ message: ChatMessage }>('POST', base, { id, type: 'text', content });
        if (res.status === 200 || res.status === 201) {
          this.acked.add(id);
          return;
        }
        if (res.status < 500 && res.status !== 429)
          throw new Error(`refused: ${res.status} ${JSON.stringify(res.data)}`);
      } catch (err) {
        if (err instanceof Error && err.message.startsWith('refused')) throw err;
      }
      await sleep(50);
    }
  }

  close() {
    this.closed = true;
    this.ws?.close();
  }
}

async function allMessages(client: Client, ref: ConversationRef): Promise<ChatMessage[]> {
  const out: ChatMessage[] = [];
  let before: number | undefined;
  for (;;) {
    const base = `/api/${ref.kind === 'chat' ? 'chats' : 'groups'}/${ref.id}/messages?limit=100`;
    const page = await client.api<MessagePage>('GET', before ? `${base}&before=${before}` : base);
    out.unshift(...page.data.messages);
    if (!page.data.hasMore) return out;
    before = page.data.messages[0]!.cursor;
  }
}

describe('kill -9 while clients send', () => {
  let server: ServerProcess | undefined;
  let dataDir = '';
  afterAll(async () => {
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged message exactly once and clients resync to exactly what is stored', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    dataDir = await mkdtemp(path.join(tmpdir(), 'sb-fault-'));
    const env = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      RATE_LIMITS: 'false',
    };
    const seeded = spawnSync(
      process.execPath,
      [
        ...SERVER_COMMAND.seed,
        JSON.stringify(
          USERS.map((email, i) => ({
            email,
            name: `Client ${i}`,
            friends: i === 0 ? USERS.slice(1) : USERS.slice(i + 1),
          })),
        ),
      ],
      { cwd: root, env, encoding: 'utf8' },
    );
    if (seeded.status !== 0) throw new Error(seeded.stderr);
    const ids = JSON.parse(seeded.stdout) as Record<string, string>;
    server = new ServerProcess(url, env);
    await server.start();

    const clients = USERS.map((email) => new Client(email, url));
    for (const c of clients) await c.login();
    const group = await clients[0]!.api<{ id: string }>('POST', '/api/groups', {
      name: 'Fault',
      memberIds: USERS.slice(1).map((e) => ids[e]),
    });
    const groupRef: ConversationRef = { kind: 'group', id: group.data.id };
    const chat = (a: number, b: number): ConversationRef => ({
      kind: 'chat',
      id: [ids[USERS[a]!]!, ids[USERS[b]!]!].sort().join('_'),
    });
    // Client i writes to its pair's chat and to the group.
    const targets = [chat(0, 1), chat(0, 1), chat(2, 3), chat(2, 3)];
    for (const c of clients) c.connect();
    // Every socket has said hello (its cursor) before the sends start: a client whose socket was still opening would
    // miss the first messages and, killed before its hello, would reconnect without a cursor and never resync.
    await expect.poll(() => clients.every((c) => c.cursor !== null), { timeout: 60_000 }).toBe(true);

    const sending = clients.map(async (c, i) => {
      for (let n = 0; n < PER_CLIENT; n++) await c.send(n % 3 === 0 ? groupRef : targets[i]!, `c${i}-${n}`);
    });
    // Kill while every client is mid-stream, then bring it back on the same data.
    const acked = () => clients.reduce((n, c) => n + c.acked.size, 0);
    while (acked() < 12) await sleep(20);
    const ackedBeforeKill = acked();
    const dropsBeforeKill = clients.map((c) => c.drops);
    await server.kill9();
    // The server stays down until every client has seen its socket close (and goes on sending into the void).
    await expect.poll(() => clients.every((c, i) => c.drops > dropsBeforeKill[i]!), { timeout: 30_000 }).toBe(true);
    await server.start();
    await Promise.all(sending);
    expect(ackedBeforeKill).toBeGreaterThan(0);
    expect(ackedBeforeKill).toBeLessThan(PER_CLIENT * clients.length);

    // The database: every acknowledged message once, nothing else, no content twice.
    const reader = clients[0]!;
    const stored = [
      ...(await allMessages(reader, groupRef)),
      ...(await allMessages(reader, chat(0, 1))),
      ...(await allMessages(clients[2]!, chat(2, 3))),
    ];
    const ackedIds = new Set(clients.flatMap((c) => [...c.acked]));
    expect(ackedIds.size).toBe(PER_CLIENT * clients.length);
    expect(new Set(stored.map((m) => m.id))).toEqual(ackedIds);
    expect(stored).toHaveLength(ackedIds.size);
    expect(new Set(stored.map((m) => m.content)).size).toBe(stored.length);

    // A last message to the group, sent after all the others: each socket delivers in order, so once it has reached
    // a client, so has everything stored before it, and any second copy of an earlier one.
    const last = await reader.api<{ message: ChatMessage }>('POST', `/api/groups/${groupRef.id}/messages`, {
      id: randomUUID(),
      type: 'text',
      content: 'the end',
    });
    expect([200, 201]).toContain(last.status);
    const lastId = last.data.message.id;

    // Each client resynced after the restart and holds exactly its conversations' stored messages, each once.
    for (const [i, c] of clients.entries()) {
      const mine = stored.filter((m) => m.conversation.kind === 'group' || m.conversation.id === targets[i]!.id);
      await expect.poll(() => c.held.has(lastId), { timeout: 30_000 }).toBe(true);
      c.held.delete(lastId);
      c.arrivals.delete(lastId);
      expect(new Set(c.held.keys())).toEqual(new Set(mine.map((m) => m.id)));
      expect(c.resyncs).toBeGreaterThan(0);
      expect([...c.arrivals.values()].every((n) => n === 1)).toBe(true);
    }
    for (const c of clients) c.close();
  }, 300_000);
});
