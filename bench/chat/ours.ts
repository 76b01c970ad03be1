// Targets of the chat benchmark on this repository's code: the bare `ws` echo (the floor of this machine) and the
// real server (PGlite, PostgreSQL, or several instances on one PostgreSQL), the population seeded in bulk.
import { spawnSync, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import WebSocket from 'ws';
import { chatIdFor } from '../../packages/shared/src/chat.ts';
import { conversationTopic } from '../../packages/shared/src/realtime.ts';
import type { Handlers, Population, Target } from './load.ts';
import { freePort, onCleanup, procStats, root, sleep, spawnLogged, stopChild } from './util.ts';

/** Handshakes in flight at once while the sockets open (BENCH_HANDSHAKES). */
const HANDSHAKES_IN_FLIGHT = Number(process.env.BENCH_HANDSHAKES ?? 64);

/**
 * Opens one socket per url into `sockets` (by index), at most HANDSHAKES_IN_FLIGHT handshakes at a time so the
 * server is not flooded with them; each hears its frames from the start (pings come while the others are still
 * connecting, and a socket that leaves one unanswered is dropped). `localAddress` spreads them over loopback
 * source addresses (each has its own ephemeral ports); a crowd shows its progress every 10 s.
 */
async function openAll(
  sockets: WebSocket[],
  urls: string[],
  headers: (i: number) => Record<string, string>,
  onMessage: (i: number, text: string, ws: WebSocket) => void,
  localAddress?: (i: number) => string | undefined,
): Promise<void> {
  const started = performance.now();
  let shown = started;
  let next = 0;
  let open = 0;
  const one = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(urls[i]!, { headers: headers(i), localAddress: localAddress?.(i) });
      ws.on('message', (raw) => onMessage(i, raw.toString(), ws));
      ws.once('open', () => resolve());
      // Later errors (a reset while the bench closes) must not throw out of the process.
      ws.on('error', reject);
      sockets[i] = ws;
    });
  /** A handshake the server sheds while busy (503) is tried again after a second, as the web client reconnects. */
  const oneOrRetry = async (i: number) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await one(i);
      } catch (err) {
        if (attempt === 5 || !String(err).includes('503')) throw err;
        await sleep(1000);
      }
    }
  };
  const worker = async () => {
    while (next < urls.length) {
      await oneOrRetry(next++);
      open++;
      if (urls.length >= 5000 && performance.now() - shown > 10_000) {
        shown = performance.now();
        console.log(
          `  ${open.toLocaleString('en')} of ${urls.length.toLocaleString('en')} sockets open (${fmtS(shown - started)})`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(HANDSHAKES_IN_FLIGHT, urls.length) }, worker));
  if (urls.length >= 5000) {
    console.log(`  ${urls.length.toLocaleString('en')} sockets open in ${fmtS(performance.now() - started)}`);
  }
}

const fmtS = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function waitHealthy(url: string, logs: string[], child: ChildProcess) {
  for (const deadline = Date.now() + 90_000; Date.now() < deadline; await sleep(200)) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${logs.join('')}`);
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
  }
  throw new Error(`server did not start:\n${logs.join('')}`);
}

/** How our clients send (BENCH_SEND): `socket` (the `send` op, as the web app does) or `http` (POST …/messages). */
const SEND_PATH = process.env.BENCH_SEND ?? 'socket';

export async function echoTarget(pop: Population): Promise<Target> {
  const port = await freePort();
  const { child, logs } = spawnLogged(['--import', 'tsx', 'bench/chat/echo-server.ts', String(port)], process.env);
  const stop = onCleanup(() => stopChild(child));
  for (const deadline = Date.now() + 30_000; !logs.join('').includes('listening'); await sleep(50)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`echo server: ${logs.join('')}`);
  }
  let handlers: Handlers | undefined;
  const sockets: WebSocket[] = [];
  await openAll(
    sockets,
    Array.from({ length: pop.users }, (_, i) => `ws://127.0.0.1:${port}/?id=${i}`),
    () => ({}),
    (i, text) => handlers?.delivered(i, text),
  );
  return {
    name: 'bare ws echo',
    pids: [child.pid!],
    acks: false,
    send(sender, conv, id) {
      sockets[sender]!.send(JSON.stringify({ to: conv.members.filter((m) => m !== sender).map(String), data: id }));
    },
    listen: (h) => (handlers = h),
    async close() {
      sockets.forEach((ws) => ws.terminate());
      await stop();
    },
  };
}

export interface ServerOptions {
  name: string;
  instances: number;
  /** PostgreSQL URL and database name, or none for PGlite. */
  database?: { url: string; name: string };
  /** Users from this index on subscribe to their chat's topic (idle but listening: typing, read marks). */
  idleFrom?: number;
  /** Called once the server is up and before any socket connects (the crowd run's baseline memory). */
  beforeSockets?: (pids: number[]) => void;
  /** Loopback source addresses the client sockets are spread over, round robin (none: the system's choice). */
  sourceAddresses?: string[];
}

interface Seed {
  users: { id: string; token: string }[];
  groups: { id: string; members: string[] }[];
}

export async function serverTarget(pop: Population, opts: ServerOptions): Promise<Target> {
  const { instances } = opts;
  const dataDirs = await Promise.all(
    Array.from({ length: instances }, () => mkdtemp(path.join(tmpdir(), 'sb-bench-chat-'))),
  );
  const servers: { child: ChildProcess; url: string }[] = [];
  const sockets: WebSocket[] = [];
  const cleanup = onCleanup(async () => {
    sockets.forEach((ws) => ws?.terminate());
    await Promise.all(servers.map((s) => stopChild(s.child)));
    await Promise.all(dataDirs.map((d) => rm(d, { recursive: true, force: true })));
  });
  try {
    const baseEnv = {
      ...process.env,
      LOG_LEVEL: 'error',
      RATE_LIMITS: 'false',
      // Every student of the bench comes from 127.0.0.1, as if from one campus NAT: its per-address caps are raised
      // so each student may hold a connection of their own, as their browser does.
      REQUESTS_IN_FLIGHT_PER_IP: '100000',
      CONNECTIONS_PER_IP: '100000',
      DATABASE_URL: opts.database?.url ?? '',
    };
    const seeded = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'bench/chat/seed.ts', String(pop.users), String(pop.groups.length)],
      { cwd: root, env: { ...baseEnv, DATA_DIR: dataDirs[0] }, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
    );
    if (seeded.status !== 0) throw new Error(`seeding failed: ${seeded.stderr}`);
    const seed = JSON.parse(seeded.stdout) as Seed;
    const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
    for (let k = 0; k < instances; k++) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const { child, logs } = spawnLogged([...nodeArgs, '--import', 'tsx', 'packages/server/src/main.ts'], {
        ...baseEnv,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: url,
        DATA_DIR: dataDirs[k]!,
      });
      servers.push({ child, url });
      await waitHealthy(url, logs, child);
    }
    const pids = servers.map((s) => s.child.pid!);
    opts.beforeSockets?.(pids);
    let handlers: Handlers | undefined;
    /** Each idle socket's subscription waiting for its answer (`subscribed`, or an error frame: refused). */
    const answers = new Map<number, (refusal: string | null) => void>();
    let closedByServer = 0;
    const onMessage = (i: number, text: string, ws: WebSocket) => {
      if (text.startsWith('{"type":"event","event":{"type":"message.created"')) {
        handlers?.delivered(i, (JSON.parse(text) as { event: { message: { id: string } } }).event.message.id);
      } else if (text.startsWith('{"type":"ack"')) {
        handlers?.acked((JSON.parse(text) as { ref: string }).ref);
      } else if (text.startsWith('{"type":"error"')) {
        if (!handlers) answers.get(i)?.(text);
        handlers?.failed((JSON.parse(text) as { ref?: string }).ref, text);
      } else if (text.startsWith('{"type":"subscribed"')) {
        answers.get(i)?.(null);
      } else if (text === '{"type":"ping"}') {
        // As the web client does: the answer keeps the socket alive.
        ws.send('{"op":"pong"}');
      }
    };
    const sources = opts.sourceAddresses ?? [];
    await openAll(
      sockets,
      seed.users.map((_, i) => `${servers[i % instances]!.url.replace('http', 'ws')}/api/ws`),
      (i) => ({ cookie: `sb_session=${seed.users[i]!.token}` }),
      onMessage,
      sources.length ? (i) => sources[i % sources.length] : undefined,
    );
    for (const ws of sockets) ws.once('close', () => closedByServer++);
    if (opts.idleFrom !== undefined) {
      // Idle students still listen to their open chat (typing, read marks), as the web client does. At most
      // HANDSHAKES_IN_FLIGHT subscriptions wait for their answer at a time; one refused (its authorisation query
      // failed: the server answers 403 for any failure) is asked again, up to 3 times.
      const idle = pop.chats.filter((c) => c.members[0]! >= opts.idleFrom!);
      const jobs = idle.flatMap((c) => {
        const [a, b] = c.members.map((m) => seed.users[m]!.id) as [string, string];
        const topic = conversationTopic({ kind: 'chat', id: chatIdFor(a, b) });
        return c.members.map((m) => ({ m, frame: JSON.stringify({ op: 'subscribe', topic }) }));
      });
      const started = performance.now();
      let next = 0;
      let retried = 0;
      const subscribe = (m: number, frame: string) =>
        new Promise<string | null>((resolve) => {
          const timer = setTimeout(() => resolve('no answer in 60 s'), 60_000);
          answers.set(m, (refusal) => {
            clearTimeout(timer);
            answers.delete(m);
            resolve(refusal);
          });
          sockets[m]!.send(frame);
        });
      const worker = async () => {
        while (next < jobs.length) {
          const { m, frame } = jobs[next++]!;
          for (let attempt = 1; ; attempt++) {
            const refusal = await subscribe(m, frame);
            if (!refusal) break;
            if (attempt === 3 || closedByServer) {
              throw new Error(
                `subscription refused ${attempt} times (${refusal.slice(0, 200)}); ` +
                  `${closedByServer} sockets closed by the server`,
              );
            }
            retried++;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(HANDSHAKES_IN_FLIGHT, jobs.length) }, worker));
      if (jobs.length >= 5000 || retried) {
        console.log(
          `  ${jobs.length.toLocaleString('en')} subscriptions in ${fmtS(performance.now() - started)}` +
            (retried ? ` (${retried} refused and asked again)` : ''),
        );
      }
    }
    const viaHttp = SEND_PATH === 'http';
    const agents = servers.map(() => new http.Agent({ keepAlive: true, maxSockets: 1024 }));
    const postMessage = (sender: number, path: string, body: string, id: string) => {
      const req = http.request(
        `${servers[sender % instances]!.url}${path}`,
        {
          method: 'POST',
          agent: agents[sender % instances],
          headers: {
            cookie: `sb_session=${seed.users[sender]!.token}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            if (res.statusCode === 200 || res.statusCode === 201) handlers?.acked(id);
            else handlers?.failed(id, `${res.statusCode} ${Buffer.concat(chunks).toString()}`);
          });
        },
      );
      req.on('error', (err) => handlers?.failed(id, String(err)));
      req.end(body);
    };
    const chatId = pop.chats.map((c) => chatIdFor(seed.users[c.members[0]!]!.id, seed.users[c.members[1]!]!.id));
    return {
      name: opts.name,
      pids,
      database: opts.database?.name,
      acks: true,
      send(sender, conv, id) {
        const conversation =
          conv.kind === 'chat'
            ? { kind: 'chat', id: chatId[conv.index]! }
            : { kind: 'group', id: seed.groups[conv.index]!.id };
        const message = { id, type: 'text', content: `m ${id.slice(0, 8)}` };
        if (viaHttp) {
          const base = conversation.kind === 'chat' ? '/api/chats' : '/api/groups';
          postMessage(sender, `${base}/${encodeURIComponent(conversation.id)}/messages`, JSON.stringify(message), id);
        } else {
          sockets[sender]!.send(JSON.stringify({ op: 'send', conversation, message }));
        }
      },
      listen: (h) => (handlers = h),
      stored: opts.database
        ? async ({ chat, group }) => {
            const db = new pg.Client({ connectionString: opts.database!.url });
            await db.connect();
            try {
              const { rows } = await db.query<{ n: string }>('select count(*) as n from messages');
              return `${rows[0]!.n} messages stored of ${chat + group} sent`;
            } finally {
              await db.end();
            }
          }
        : undefined,
      close: async () => {
        agents.forEach((a) => a.destroy());
        await cleanup();
      },
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/** Resident memory of these processes now, in MB. */
export const rssOf = (pids: number[]) => pids.reduce((s, pid) => s + procStats(pid).rssMb, 0);
