// Case 4: slow clients from one address while 200 students chat and documents are processed. 500 connections send
// their headers at one byte a second and 100 send a declared 10 MB document upload at 1 KB/s, all at once. Targets:
// /api/health (timed on a thread of its own) and the students' HTTP writes keep answering under 250 ms, nothing the
// students sent is lost or doubled, and every slow connection is cut off by the header and body rules or refused by
// the per-address cap (CONNECTIONS_PER_IP) in time: headers within HEADERS_TIMEOUT, bodies once they fall behind
// BODY_MIN_BYTES_PER_SECOND (BODY_TIMEOUT / (1 − 1 KB/s ÷ the minimum) after they start), plus 3 s.
// Each leg (PGlite, PostgreSQL) runs twice:
//   direct  no proxy: the attacker is the TCP peer 127.0.0.2 (the students, the probes 127.0.0.1)
//   proxy   TRUST_PROXY=loopback, every connection from the "proxy" 127.0.0.1, the attacker's requests forwarded for
//           198.51.100.7: the header connections are the proxy's (no client is known before the headers are in),
//           and the bodies are counted for the forwarded address, so 400 of them are sent (over the cap of 256)
// BENCH_FAULT_LEGS=pglite,pg and BENCH_FAULT_SLOW_MODES=direct,proxy pick rows.
import { connect, type Socket } from 'node:net';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CONNECTION_DEFAULTS, loadConnectionLimits } from '../../packages/server/src/connection-config.ts';
import { watch } from '../abuse/server.ts';
import { logIn } from '../abuse/http.ts';
import { pctSorted, sleep, withDatabase } from '../chat/util.ts';
import type { FaultRow } from './fault-row.ts';
import { startHarness, type Harness } from './harness.ts';
import { backAfter, sawSince } from './measure.ts';

const WARM_MS = Number(process.env.BENCH_FAULT_WARM_MS ?? 5000);
const HEADER_CONNECTIONS = 500;
const BODY_CONNECTIONS = 100;
/** Through the proxy the bodies are what the per-address cap counts: more of them than it allows. */
const PROXY_BODY_CONNECTIONS = 400;
const DECLARED_BYTES = 10 * 1024 * 1024;
const BODY_BYTES_PER_SECOND = 1024;
const ANSWER_TARGET_MS = 250;
const SLACK_MS = 3000;
const ATTACKER_PEER = '127.0.0.2';
const FORWARDED_FOR = '198.51.100.7';
const limits = loadConnectionLimits(process.env);

interface Slow {
  kind: 'header' | 'body';
  socket: Socket;
  openedAt: number;
  /**
   * When the TCP handshake completed. A burst of connections larger than the listen backlog waits in SYN retries
   * (1 s, 3 s, 7 s, 15 s, 31 s) before the server can see it: the server's rules start at its accept, not at the
   * client's connect call.
   */
  establishedAt: number | null;
  closedAt: number | null;
  data: string;
  sent: number;
}

const statusOf = (s: Slow) => Number(/^HTTP\/1\.1 (\d{3})/.exec(s.data)?.[1] ?? 0);

function open(kind: Slow['kind'], port: number, localAddress: string): Slow {
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  const slow: Slow = {
    kind,
    socket,
    openedAt: performance.now(),
    establishedAt: null,
    closedAt: null,
    data: '',
    sent: 0,
  };
  socket.once('connect', () => (slow.establishedAt = performance.now()));
  socket.on('data', (d) => (slow.data += d.toString()));
  socket.on('error', () => undefined);
  socket.once('close', () => (slow.closedAt = performance.now()));
  return slow;
}

/** The outcome of each slow connection: refused at accept, answered (408, 429, …), or still open. */
function outcomes(list: Slow[]) {
  const counts = new Map<string, number>();
  let longestMs = 0;
  let slowestConnectMs = 0;
  for (const s of list) {
    const status = statusOf(s);
    const what = s.closedAt === null ? 'still open' : status ? String(status) : 'refused';
    counts.set(what, (counts.get(what) ?? 0) + 1);
    if (s.closedAt !== null && what !== 'refused') {
      longestMs = Math.max(longestMs, s.closedAt - (s.establishedAt ?? s.openedAt));
    }
    if (s.establishedAt !== null) slowestConnectMs = Math.max(slowestConnectMs, s.establishedAt - s.openedAt);
  }
  const text = [...counts]
    .sort()
    .map(([k, n]) => `${k}×${n}`)
    .join(', ');
  return { counts, text, longestMs, slowestConnectMs };
}

/** Files waiting under DATA_DIR: document uploads being received (tmp/) and staged resumable uploads (uploads/). */
async function stagedFiles(dataDir: string): Promise<number> {
  let n = 0;
  for (const dir of ['tmp', 'uploads']) {
    n += (await readdir(path.join(dataDir, dir), { recursive: true }).catch(() => [] as string[])).length;
  }
  return n;
}

async function oneRow(leg: 'pglite' | 'pg', mode: 'direct' | 'proxy', databaseUrl: string): Promise<FaultRow> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `sb-fault-slow-${leg}-`));
  let h: Harness | undefined;
  const slow: Slow[] = [];
  try {
    h = await startHarness({
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      ...(mode === 'proxy' ? { TRUST_PROXY: 'loopback' } : {}),
    });
    const base = h.base;
    const port = Number(new URL(base).port);
    // The attacker is a signed-in student of its own (a session apart from the document uploads').
    const login = await logIn(base, 'faults-docs@g.ucla.edu', 'password123', FORWARDED_FOR);
    if (login.status !== 200) throw new Error(`the attacker's log-in answered ${login.status}`);
    await sleep(WARM_MS);

    const peer = mode === 'direct' ? ATTACKER_PEER : '127.0.0.1';
    const forwarded = mode === 'proxy' ? `X-Forwarded-For: ${FORWARDED_FOR}\r\n` : '';
    const bodies = mode === 'direct' ? BODY_CONNECTIONS : PROXY_BODY_CONNECTIONS;
    const headerText = `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n${forwarded}X-Padding: ${'a'.repeat(4000)}`;
    const bodyHead =
      `POST /api/upload-document HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${base}\r\nCookie: ${login.cookie}\r\n` +
      `${forwarded}Content-Type: multipart/form-data; boundary=slowslowslow\r\nContent-Length: ${DECLARED_BYTES}\r\n\r\n` +
      '--slowslowslow\r\nContent-Disposition: form-data; name="file"; filename="slow.pdf"\r\n' +
      'Content-Type: application/pdf\r\n\r\n%PDF-1.4\n';
    const chunk = Buffer.alloc(BODY_BYTES_PER_SECOND, 0x20);

    const h0 = h;
    const probe = watch({ ...h0.server, stop: (graceMs?: number) => h0.server.stop(graceMs) });
    const students0 = h.students.figures();
    const t0 = performance.now();
    for (let i = 0; i < HEADER_CONNECTIONS; i++) slow.push(open('header', port, peer));
    for (let i = 0; i < bodies; i++) {
      const s = open('body', port, peer);
      s.socket.once('connect', () => {
        s.socket.write(bodyHead);
        s.sent = bodyHead.length;
      });
      slow.push(s);
    }
    // Once a second: one more byte of every header, one more kilobyte of every body.
    const ticker = setInterval(() => {
      for (const s of slow) {
        if (s.closedAt !== null || s.socket.connecting || s.socket.destroyed) continue;
        if (s.kind === 'header') {
          if (s.sent < headerText.length) s.socket.write(headerText[s.sent++]!);
        } else if (s.sent < DECLARED_BYTES) {
          s.socket.write(chunk);
          s.sent += chunk.length;
        }
      }
    }, 1000);
    const bodyDeadlineMs =
      limits.bodyTimeoutMs / Math.max(0.01, 1 - BODY_BYTES_PER_SECOND / limits.bodyMinBytesPerSecond);
    const capMs = Math.max(limits.headersTimeoutMs, bodyDeadlineMs) + 30_000;
    while (performance.now() - t0 < capMs && slow.some((s) => s.closedAt === null)) await sleep(250);
    clearInterval(ticker);
    const attackEnd = performance.now();
    const watched = await probe.stop();
    const studentWrites = h.writes
      .after(t0)
      .filter((s) => s.at <= attackEnd)
      .map((s) => s.ms)
      .sort((a, b) => a - b);
    const saw = sawSince(h, t0);
    for (const s of slow) s.socket.destroy();

    const headers = outcomes(slow.filter((s) => s.kind === 'header'));
    const body = outcomes(slow.filter((s) => s.kind === 'body'));
    const back = await backAfter(h, attackEnd);
    const rssMb = h.rssMb();
    await h.stopLoad();
    const drained = await h.students.drain(30_000);
    const figures = h.students.figures();
    // After the load has stopped: nothing is being received any more.
    const staged = await stagedFiles(dataDir);

    const still = (headers.counts.get('still open') ?? 0) + (body.counts.get('still open') ?? 0);
    const refusedOrCapped =
      (headers.counts.get('refused') ?? 0) + (body.counts.get('refused') ?? 0) + (body.counts.get('429') ?? 0);
    const overCap = Math.max(0, (mode === 'direct' ? HEADER_CONNECTIONS + bodies : bodies) - limits.perIp);
    const writesMax = studentWrites.length ? studentWrites[studentWrites.length - 1]! : 0;
    const why: string[] = [];
    if (h.server.ended()) why.push(`server ${h.server.ended()}`);
    if (still) why.push(`${still} slow connections never cut`);
    if (headers.longestMs > limits.headersTimeoutMs + SLACK_MS) why.push('headers cut late');
    if (body.longestMs > bodyDeadlineMs + SLACK_MS) why.push('bodies cut late');
    if (refusedOrCapped < overCap) why.push(`only ${refusedOrCapped} refused of ${overCap} over the cap`);
    if (watched.slowestProbeMs >= ANSWER_TARGET_MS || watched.failedProbes) why.push('health');
    if (writesMax >= ANSWER_TARGET_MS) why.push("students' writes");
    const lost = figures.undelivered + (drained ? 0 : h.students.pending());
    if (lost || figures.duplicates) why.push('messages');
    if (staged > 0) why.push('staged files left');

    return {
      case:
        mode === 'direct'
          ? `slow clients, direct from ${ATTACKER_PEER}: ${HEADER_CONNECTIONS} headers at 1 B/s + ${bodies} bodies (10 MB declared) at 1 KB/s`
          : `slow clients through a trusted proxy (TRUST_PROXY=loopback), forwarded for ${FORWARDED_FOR}: ${HEADER_CONNECTIONS} headers at 1 B/s + ${bodies} bodies at 1 KB/s`,
      leg,
      sawErrors: saw,
      reconnects: figures.reconnects - students0.reconnects,
      lost,
      duplicates: figures.duplicates,
      backWithinMs: back,
      rssMb,
      halfWritten: staged > 0 ? `${staged} staged upload files left` : 'nothing',
      verdict: why.length ? 'missed' : 'met',
      notes:
        `headers: ${headers.text}, the last cut ${(headers.longestMs / 1000).toFixed(1)} s after connecting ` +
        `(HEADERS_TIMEOUT ${limits.headersTimeoutMs / 1000} s), the slowest to connect ` +
        `${(headers.slowestConnectMs / 1000).toFixed(1)} s; bodies: ${body.text}, the last cut ` +
        `${(body.longestMs / 1000).toFixed(1)} s after connecting (due by ${(bodyDeadlineMs / 1000).toFixed(0)} s at ` +
        `${limits.bodyMinBytesPerSecond} B/s minimum); CONNECTIONS_PER_IP ${limits.perIp}; slowest /api/health ` +
        `${watched.slowestProbeMs.toFixed(0)} ms of ${watched.probes} probes (${watched.failedProbes} failed); ` +
        `students' HTTP writes during the attack p50 ${pctSorted(studentWrites, 50).toFixed(0)} / p99 ` +
        `${pctSorted(studentWrites, 99).toFixed(0)} / max ${writesMax.toFixed(0)} ms; server RSS peak ` +
        `${(watched.peakKb / 1024).toFixed(0)} MB (from ${(watched.baselineKb / 1024).toFixed(0)} MB)` +
        (why.length ? `; MISSED: ${why.join(', ')}` : ''),
    };
  } finally {
    for (const s of slow) s.socket.destroy();
    await h?.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function run(): Promise<FaultRow[]> {
  const defaults = Object.entries(CONNECTION_DEFAULTS)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  console.log(`  case 4 settings: ${defaults} (the server's defaults unless set in the environment)`);
  const rows: FaultRow[] = [];
  const legs = (process.env.BENCH_FAULT_LEGS ?? 'pglite,pg').split(',');
  const modes = (process.env.BENCH_FAULT_SLOW_MODES ?? 'direct,proxy').split(',') as ('direct' | 'proxy')[];
  for (const mode of modes) if (legs.includes('pglite')) rows.push(await oneRow('pglite', mode, ''));
  for (const mode of modes) {
    if (legs.includes('pg')) rows.push(await withDatabase('sb_fault_slow', (url) => oneRow('pg', mode, url)));
  }
  return rows;
}
