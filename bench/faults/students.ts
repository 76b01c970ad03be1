// The students of the fault bench: one socket each, behaving as the web app does when things go wrong. A message
// waits in the student's outbox until the server acknowledges it (after the commit); a refusal the server may
// get over (5xx) sends it again, with the same id, after the outbox's back-off (1 s doubling up to 30 s), and a
// socket closed before the ack once the socket is back; a
// closed socket reconnects with the web app's back-off and jitter and resyncs from its cursor (`?cursor=N`); a
// `resync.required` (the server's bus reconnected) asks for what was missed. Everything seen is counted.
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { REALTIME_TIMING } from '../../packages/shared/src/realtime.ts';
import { GROUP_SHARE, type Conversation, type Population } from '../chat/load.ts';
import { sleep } from '../chat/util.ts';

export interface SeededStudents {
  users: { id: string; token: string }[];
  groups: { id: string; members: string[] }[];
}

interface Student {
  index: number;
  ws: WebSocket | null;
  /** Open, and past the hello (and the resync of a reconnect). */
  live: boolean;
  /** Between asking for a resync (a reconnect's address, or `resync`) and its `resync.done`. */
  resyncing: boolean;
  cursor: number;
  attempt: number;
  outbox: Map<string, { conv: Conversation; inFlight: boolean; at: number }>;
  everOpened: boolean;
  /** The web app's outbox back-off after a refusal it may retry: 1 s doubling up to 30 s, reset by an ack. */
  retryMs: number;
  retryTimer: NodeJS.Timeout | undefined;
}

export interface StudentFigures {
  sent: number;
  acked: number;
  reconnects: number;
  /** Error frames and close codes by kind, e.g. 'ws error 503' → 41. */
  errors: Map<string, number>;
  /** Acknowledged messages some receiver never got. */
  undelivered: number;
  /** Deliveries of one message to one receiver beyond the first, live (not in a resync). */
  duplicates: number;
  /**
   * Messages a resync sent again that the receiver already had: on PostgreSQL a resync looks 10 s back for
   * messages that committed out of cursor order, and the client keeps messages by id (so it shows them once).
   */
  resent: number;
}

export class Students {
  private readonly students: Student[];
  private readonly chatIds: string[];
  /** Per message: receivers (user indexes) and how often each got it. */
  private readonly deliveries = new Map<string, { receivers: number[]; got: Uint8Array }>();
  readonly acked = new Set<string>();
  private readonly errors = new Map<string, number>();
  private reconnects = 0;
  private duplicates = 0;
  private resent = 0;
  private sent = 0;
  private closed = false;
  private sender: NodeJS.Timeout | undefined;

  constructor(
    private readonly base: string,
    private readonly seed: SeededStudents,
    private readonly pop: Population,
    chatIds: string[],
  ) {
    this.chatIds = chatIds;
    this.students = seed.users.map((_, index) => ({
      index,
      ws: null,
      live: false,
      resyncing: false,
      cursor: 0,
      attempt: 0,
      outbox: new Map(),
      everOpened: false,
      retryMs: 1000,
      retryTimer: undefined,
    }));
  }

  private count(kind: string) {
    this.errors.set(kind, (this.errors.get(kind) ?? 0) + 1);
  }

  /** Opens every socket (in batches of 50) and waits until all are live. */
  async open(timeoutMs = 60_000): Promise<void> {
    for (let i = 0; i < this.students.length; i += 50) {
      for (const s of this.students.slice(i, i + 50)) this.connect(s);
      await this.waitLive(timeoutMs, i + 50);
    }
  }

  get size(): number {
    return this.students.length;
  }

  /** Live sockets now. */
  liveCount(): number {
    return this.students.filter((s) => s.live).length;
  }

  /** Waits until the first `n` (all by default) sockets are live; false on timeout. */
  async waitLive(timeoutMs: number, n = this.students.length): Promise<boolean> {
    const want = Math.min(n, this.students.length);
    for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(10)) {
      if (this.students.slice(0, want).every((s) => s.live)) return true;
    }
    return false;
  }

  /** When the oldest message still waiting for its ack was put in its outbox (performance.now()), or null. */
  oldestPending(): number | null {
    let oldest: number | null = null;
    for (const s of this.students)
      for (const m of s.outbox.values()) if (oldest === null || m.at < oldest) oldest = m.at;
    return oldest;
  }

  /** Messages not yet acknowledged, every outbox together. */
  pending(): number {
    return this.students.reduce((n, s) => n + s.outbox.size, 0);
  }

  private connect(s: Student) {
    if (this.closed) return;
    const url = `${this.base.replace('http', 'ws')}/api/ws${s.everOpened ? `?cursor=${s.cursor}` : ''}`;
    const ws = new WebSocket(url, { headers: { cookie: `sb_session=${this.seed.users[s.index]!.token}` } });
    s.ws = ws;
    s.resyncing = s.everOpened;
    ws.on('message', (raw) => this.onFrame(s, ws, raw.toString()));
    ws.on('error', () => undefined);
    ws.on('unexpected-response', (_req, res) => {
      this.count(`ws refused ${res.statusCode}`);
      res.resume();
    });
    ws.on('close', (code) => {
      if (s.ws !== ws) return;
      s.ws = null;
      s.live = false;
      for (const m of s.outbox.values()) m.inFlight = false;
      if (this.closed) return;
      if (s.everOpened) this.count(`ws close ${code}`);
      // The web app's back-off: 0.5 s doubling up to 30 s, with jitter.
      const delay = Math.min(REALTIME_TIMING.backoffMaxMs, REALTIME_TIMING.backoffStartMs * 2 ** s.attempt);
      s.attempt++;
      setTimeout(() => this.connect(s), delay * (0.5 + Math.random() * 0.5));
    });
  }

  private onFrame(s: Student, ws: WebSocket, text: string) {
    if (text === '{"type":"ping"}') return ws.send('{"op":"pong"}');
    const frame = JSON.parse(text) as {
      type: string;
      event?: { type: string; message?: { id: string; cursor: number } };
      ref?: string;
      status?: number;
      cursor?: number;
    };
    switch (frame.type) {
      case 'hello':
        // A first socket is live at once; a reconnect once the resync its address asked for is done.
        if (!s.everOpened) {
          s.cursor = frame.cursor!;
          this.becameLive(s, ws);
        }
        break;
      case 'resync.done':
        s.cursor = Math.max(s.cursor, frame.cursor!);
        s.resyncing = false;
        if (!s.live) this.becameLive(s, ws);
        // The web app's outbox sends at once after a resync (the server's bus, so its database, is back).
        else this.kickNow(s);
        break;
      case 'resync.required':
        s.resyncing = true;
        ws.send(JSON.stringify({ op: 'resync', cursor: s.cursor }));
        break;
      case 'event':
        if (frame.event?.type === 'message.created' && frame.event.message) {
          const { id, cursor } = frame.event.message;
          s.cursor = Math.max(s.cursor, cursor);
          const d = this.deliveries.get(id);
          const k = d ? d.receivers.indexOf(s.index) : -1;
          if (!d || k < 0) break;
          if (d.got[k] === 0) d.got[k] = 1;
          else if (s.resyncing) this.resent++;
          else this.duplicates++;
        }
        break;
      case 'ack': {
        const m = s.outbox.get(frame.ref!);
        if (!m) break;
        s.outbox.delete(frame.ref!);
        this.acked.add(frame.ref!);
        s.retryMs = 1000;
        break;
      }
      case 'error': {
        this.count(`ws error ${frame.status}`);
        const m = frame.ref ? s.outbox.get(frame.ref) : undefined;
        if (!m) break;
        if ((frame.status ?? 500) >= 500) {
          // The server may get over it (503 while the database is away): again later, same id, as the web app's
          // outbox does (one retry timer per student, its delay doubling).
          m.inFlight = false;
          if (!s.retryTimer) {
            s.retryTimer = setTimeout(() => {
              s.retryTimer = undefined;
              this.flush(s);
            }, s.retryMs);
            s.retryMs = Math.min(s.retryMs * 2, 30_000);
          }
        } else {
          s.outbox.delete(frame.ref!);
          this.count(`refused ${frame.status}`);
        }
        break;
      }
    }
  }

  private becameLive(s: Student, ws: WebSocket) {
    if (s.ws !== ws) return;
    if (s.everOpened) this.reconnects++;
    s.everOpened = true;
    s.live = true;
    s.attempt = 0;
    this.kickNow(s);
  }

  /** As the web app's outbox.kickNow (the socket open, or a resync done): back-off reset, pending messages sent. */
  private kickNow(s: Student) {
    clearTimeout(s.retryTimer);
    s.retryTimer = undefined;
    s.retryMs = 1000;
    this.flush(s);
  }

  private flush(s: Student) {
    if (!s.live || !s.ws || s.retryTimer) return;
    for (const [id, m] of s.outbox) {
      if (m.inFlight) continue;
      m.inFlight = true;
      const conversation =
        m.conv.kind === 'chat'
          ? { kind: 'chat', id: this.chatIds[m.conv.index] }
          : { kind: 'group', id: this.seed.groups[m.conv.index]!.id };
      s.ws.send(
        JSON.stringify({ op: 'send', conversation, message: { id, type: 'text', content: `f ${id.slice(0, 8)}` } }),
      );
    }
  }

  /** Puts one message in a random student's outbox (a chat 80 %, a group 20 %). */
  sendOne() {
    const { chats, groups } = this.pop;
    const conv =
      groups.length && Math.random() < GROUP_SHARE
        ? groups[Math.floor(Math.random() * groups.length)]!
        : chats[Math.floor(Math.random() * chats.length)]!;
    const sender = conv.members[Math.floor(Math.random() * conv.members.length)]!;
    const id = randomUUID();
    const receivers = conv.members.filter((m) => m !== sender);
    this.deliveries.set(id, { receivers, got: new Uint8Array(receivers.length) });
    this.sent++;
    const s = this.students[sender]!;
    s.outbox.set(id, { conv, inFlight: false, at: performance.now() });
    this.flush(s);
  }

  /** Sends `rate` messages a second until stopped. */
  start(rate: number) {
    const t0 = performance.now();
    let count = 0;
    this.sender = setInterval(() => {
      const due = Math.floor(((performance.now() - t0) / 1000) * rate);
      for (; count < due; count++) this.sendOne();
    }, 5);
  }

  stopSending() {
    clearInterval(this.sender);
  }

  /** Waits until every outbox is empty (every message acknowledged or refused for good); false on timeout. */
  async drain(timeoutMs: number): Promise<boolean> {
    for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(20)) {
      if (this.pending() === 0 && this.undeliveredNow() === 0) return true;
    }
    return this.pending() === 0;
  }

  private undeliveredNow(): number {
    let n = 0;
    for (const id of this.acked) {
      const d = this.deliveries.get(id)!;
      for (const g of d.got) if (g === 0) n++;
    }
    return n;
  }

  figures(): StudentFigures {
    return {
      sent: this.sent,
      acked: this.acked.size,
      reconnects: this.reconnects,
      errors: new Map(this.errors),
      undelivered: this.undeliveredNow(),
      duplicates: this.duplicates,
      resent: this.resent,
    };
  }

  /** Forgets the counts so far (after the warm-up), keeping the sockets and every outbox. */
  resetCounts() {
    this.errors.clear();
    this.reconnects = 0;
  }

  close() {
    this.closed = true;
    this.stopSending();
    for (const s of this.students) {
      clearTimeout(s.retryTimer);
      s.ws?.terminate();
    }
  }
}

/** 'ws error 503×41, ws close 1012×200' (largest first), or 'none'. */
export function describeErrors(errors: Map<string, number>): string {
  const list = [...errors].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k}×${n}`);
  return list.length ? list.join(', ') : 'none';
}
