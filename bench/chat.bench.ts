// Real-time messaging figures (issue 6). Loopback clients over real WebSockets: 1,000 connected users in 500
// one-to-one chats and 50 groups of 10; messages are sent over the socket (`send`, acknowledged after the commit)
// at a fixed total rate and every delivery to the other members is timed (send → receive). Runs:
//   echo     a bare `ws` server forwarding the same frames (the floor of this machine)
//   pglite   the real server on PGlite (one instance)
//   pg       the real server on PostgreSQL (one instance)
//   pg2      two instances on one PostgreSQL database, clients split between them (LISTEN/NOTIFY)
// Prints p50/p95/p99 latency, delivered messages per second, lost and duplicated deliveries, server CPU and RSS, and
// the bench process's own CPU and event-loop delay (the clients must not be the bottleneck).
//   node --import tsx bench/chat.bench.ts      (or: npm run bench chat)
// Helpers: bench/chat/seed.ts (bulk seeding), bench/chat/echo-server.ts (the baseline).
// Env: BENCH_SECONDS (60), BENCH_USERS (1000), BENCH_RATE (500; PGlite: BENCH_RATE_PGLITE, 200),
//      BENCH_RUNS (echo,pglite,pg,pg2), BENCH_PG_URL (postgres://postgres@127.0.0.1:5432/postgres),
//      BENCH_SERVER_NODE_ARGS (extra node flags for the servers, e.g. --cpu-prof).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import pg from 'pg';
import WebSocket from 'ws';

const root = path.resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const USERS = Number(process.env.BENCH_USERS ?? 1000);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const RATE_PGLITE = Number(process.env.BENCH_RATE_PGLITE ?? 200);
const RUNS = (process.env.BENCH_RUNS ?? 'echo,pglite,pg,pg2').split(',');
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const GROUPS = 50;
const GROUP_SIZE = 10;
/** Share of messages sent to groups (each reaches 9 others); the rest go to one-to-one chats. */
const GROUP_SHARE = 0.2;

interface Seed {
  users: { id: string; token: string }[];
  chats: [string, string][];
  groups: { id: string; members: string[] }[];
}

interface Result {
  name: string;
  rate: number;
  sent: number;
  acked: number;
  deliveries: number;
  lost: number;
  duplicated: number;
  latencies: number[];
  ackLatencies: number[];
  seconds: number;
  cpu: number | null;
  rssMb: number[];
  /** The bench process itself (all clients): CPU share and event-loop delay p99, to show it kept up. */
  clientCpu: number;
  clientLagP99: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? NaN;
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** CPU seconds used so far and resident memory of a process (Linux /proc). */
function procStats(pid: number): { cpu: number; rssMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return { cpu: ticks / 100, rssMb: Number(rss?.[1] ?? 0) / 1024 };
}

function spawnLogged(args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; logs: string[] } {
  const logs: string[] = [];
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d: Buffer) => logs.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => logs.push(d.toString()));
  return { child, logs };
}

async function waitHealthy(url: string, logs: string[], child: ChildProcess) {
  for (const deadline = Date.now() + 90_000; Date.now() < deadline; await sleep(200)) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${logs.join('')}`);
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
  }
  throw new Error(`server did not start:\n${logs.join('')}`);
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(5000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** Opens sockets in batches so the server is not flooded with handshakes. */
async function openAll(urls: string[], headers: (i: number) => Record<string, string>): Promise<WebSocket[]> {
  const sockets: WebSocket[] = new Array(urls.length);
  for (let i = 0; i < urls.length; i += 50) {
    await Promise.all(
      urls.slice(i, i + 50).map(
        (url, j) =>
          new Promise<void>((resolve, reject) => {
            const ws = new WebSocket(url, { headers: headers(i + j) });
            ws.once('open', () => resolve());
            ws.once('error', reject);
            sockets[i + j] = ws;
          }),
      ),
    );
  }
  return sockets;
}

/**
 * Drives one run: `sendFrame` writes a message from a sender socket; `onDelivery` must be wired by the caller to
 * call `delivered(receiverIndex, messageId)`. Returns the figures.
 */
async function drive(
  name: string,
  rate: number,
  seed: Seed,
  send: (senderIndex: number, conv: { kind: 'chat' | 'group'; id: string; members: number[] }, id: string) => void,
  hooks: { register(handlers: { delivered(receiver: number, id: string): void; acked(id: string): void }): void },
  pids: number[],
): Promise<Result> {
  const index = new Map(seed.users.map((u, i) => [u.id, i]));
  const chats = seed.chats.map(([a, b]) => ({
    kind: 'chat' as const,
    id: [a, b].sort().join('_'),
    members: [index.get(a)!, index.get(b)!],
  }));
  const groups = seed.groups.map((g) => ({
    kind: 'group' as const,
    id: g.id,
    members: g.members.map((m) => index.get(m)!),
  }));
  const sent = new Map<string, { t0: number; expect: Set<number>; got: Map<number, number> }>();
  const latencies: number[] = [];
  const ackLatencies: number[] = [];
  let acked = 0;
  hooks.register({
    delivered(receiver, id) {
      const m = sent.get(id);
      if (!m || !m.expect.has(receiver)) return;
      const n = (m.got.get(receiver) ?? 0) + 1;
      m.got.set(receiver, n);
      if (n === 1) latencies.push(performance.now() - m.t0);
    },
    acked(id) {
      const m = sent.get(id);
      if (!m) return;
      acked++;
      ackLatencies.push(performance.now() - m.t0);
    },
  });

  const before = pids.map(procStats);
  const clientCpu0 = process.cpuUsage();
  const lag = monitorEventLoopDelay({ resolution: 2 });
  lag.enable();
  const rss: number[] = [];
  const sampler = setInterval(() => rss.push(pids.reduce((s, pid) => s + procStats(pid).rssMb, 0)), 1000);
  const start = performance.now();
  let count = 0;
  const total = Math.round(rate * SECONDS);
  while (count < total) {
    const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate));
    for (; count < due; count++) {
      const conv = Math.random() < GROUP_SHARE ? groups[count % groups.length]! : chats[count % chats.length]!;
      const sender = conv.members[Math.floor(Math.random() * conv.members.length)]!;
      const id = randomUUID();
      sent.set(id, {
        t0: performance.now(),
        expect: new Set(conv.members.filter((m) => m !== sender)),
        got: new Map(),
      });
      send(sender, conv, id);
    }
    await sleep(2);
  }
  const seconds = (performance.now() - start) / 1000;
  // Let the last ones arrive.
  const expected = () => [...sent.values()].reduce((n, m) => n + m.expect.size, 0);
  for (const deadline = Date.now() + 15_000; Date.now() < deadline && latencies.length < expected(); ) await sleep(100);
  await sleep(500);
  clearInterval(sampler);
  const after = pids.map(procStats);
  lag.disable();
  const clientCpu = process.cpuUsage(clientCpu0);
  let lost = 0;
  let duplicated = 0;
  for (const m of sent.values()) {
    for (const r of m.expect) {
      const n = m.got.get(r) ?? 0;
      if (n === 0) lost++;
      if (n > 1) duplicated += n - 1;
    }
  }
  const cpu = pids.length ? after.reduce((s, a, i) => s + a.cpu - before[i]!.cpu, 0) / seconds : null;
  return {
    name,
    rate,
    sent: total,
    acked,
    deliveries: latencies.length,
    lost,
    duplicated,
    latencies,
    ackLatencies,
    seconds,
    cpu,
    rssMb: rss,
    clientCpu: (clientCpu.user + clientCpu.system) / 1e6 / ((performance.now() - start) / 1000),
    clientLagP99: lag.percentile(99) / 1e6,
  };
}

async function runEcho(seed: Seed): Promise<Result> {
  const port = await freePort();
  const { child, logs } = spawnLogged(['--import', 'tsx', 'bench/chat/echo-server.ts', String(port)], process.env);
  for (const deadline = Date.now() + 30_000; !logs.join('').includes('listening'); await sleep(50)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`echo server: ${logs.join('')}`);
  }
  const sockets = await openAll(
    seed.users.map((u) => `ws://127.0.0.1:${port}/?id=${u.id}`),
    () => ({}),
  );
  let handlers!: { delivered(r: number, id: string): void; acked(id: string): void };
  sockets.forEach((ws, i) => ws.on('message', (raw) => handlers.delivered(i, raw.toString())));
  try {
    return await drive(
      'bare ws echo',
      RATE,
      seed,
      (sender, conv, id) => {
        const to = conv.members.filter((m) => m !== sender).map((m) => seed.users[m]!.id);
        sockets[sender]!.send(JSON.stringify({ to, data: id }));
      },
      { register: (h) => (handlers = h) },
      [child.pid!],
    );
  } finally {
    sockets.forEach((ws) => ws.terminate());
    await stop(child);
  }
}

async function runServer(name: string, rate: number, env: Record<string, string>, instances: number): Promise<Result> {
  const dataDirs = await Promise.all(
    Array.from({ length: instances }, () => mkdtemp(path.join(tmpdir(), 'sb-bench-chat-'))),
  );
  const baseEnv = { ...process.env, LOG_LEVEL: 'error', RATE_LIMITS: 'false', DATABASE_URL: '', ...env };
  const seeded = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'bench/chat/seed.ts', String(USERS), String(GROUPS), String(GROUP_SIZE)],
    { cwd: root, env: { ...baseEnv, DATA_DIR: dataDirs[0] }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (seeded.status !== 0) throw new Error(`seeding failed: ${seeded.stderr}`);
  const seed = JSON.parse(seeded.stdout) as Seed;
  const servers: { child: ChildProcess; url: string }[] = [];
  try {
    for (let k = 0; k < instances; k++) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
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
    const sockets = await openAll(
      seed.users.map((_, i) => `${servers[i % instances]!.url.replace('http', 'ws')}/api/ws`),
      (i) => ({ cookie: `sb_session=${seed.users[i]!.token}` }),
    );
    let handlers!: { delivered(r: number, id: string): void; acked(id: string): void };
    sockets.forEach((ws, i) =>
      ws.on('message', (raw) => {
        const text = raw.toString();
        if (text.startsWith('{"type":"event","event":{"type":"message.created"')) {
          handlers.delivered(i, (JSON.parse(text) as { event: { message: { id: string } } }).event.message.id);
        } else if (text.startsWith('{"type":"ack"')) {
          handlers.acked((JSON.parse(text) as { ref: string }).ref);
        } else if (text.startsWith('{"type":"error"')) {
          console.error(`  server error frame: ${text.slice(0, 200)}`);
        }
      }),
    );
    try {
      return await drive(
        name,
        rate,
        seed,
        (sender, conv, id) =>
          sockets[sender]!.send(
            JSON.stringify({
              op: 'send',
              conversation: { kind: conv.kind, id: conv.id },
              message: { id, type: 'text', content: `m ${id.slice(0, 8)}` },
            }),
          ),
        { register: (h) => (handlers = h) },
        servers.map((s) => s.child.pid!),
      );
    } finally {
      sockets.forEach((ws) => ws.terminate());
    }
  } finally {
    for (const s of servers) await stop(s.child);
    for (const d of dataDirs) await rm(d, { recursive: true, force: true });
  }
}

async function withPostgres<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const name = `sb_bench_chat_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  try {
    return await fn(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

function report(results: Result[]) {
  const echo = results.find((r) => r.name === 'bare ws echo');
  const f = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '–');
  console.log(
    `\nChat send → receive over WebSockets: ${USERS} users, ${USERS / 2} chats, ${GROUPS} groups of ${GROUP_SIZE}, ${SECONDS} s per run`,
  );
  console.log(
    `machine: ${availableParallelism()} cores, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n`,
  );
  console.log(
    'run                         rate/s  deliv/s   p50 ms   p95 ms   p99 ms  ack p99   lost  dup   CPU %   RSS MB (max)  p99 ÷ echo  client CPU %  client lag p99',
  );
  for (const r of results) {
    const p99 = pct(r.latencies, 99);
    const ratio = echo && r !== echo ? (p99 / pct(echo.latencies, 99)).toFixed(1) + '×' : '';
    console.log(
      [
        r.name.padEnd(26),
        String(r.rate).padStart(7),
        (r.deliveries / r.seconds).toFixed(0).padStart(8),
        f(pct(r.latencies, 50)).padStart(8),
        f(pct(r.latencies, 95)).padStart(8),
        f(p99).padStart(8),
        f(pct(r.ackLatencies, 99)).padStart(8),
        String(r.lost).padStart(6),
        String(r.duplicated).padStart(4),
        (r.cpu === null ? '–' : (r.cpu * 100).toFixed(0)).padStart(7),
        (r.rssMb.length ? Math.max(...r.rssMb).toFixed(0) : '–').padStart(13),
        ratio.padStart(11),
        (r.clientCpu * 100).toFixed(0).padStart(13),
        f(r.clientLagP99).padStart(15),
      ].join(' '),
    );
  }
}

const results: Result[] = [];
const seedForEcho = (): Seed => {
  const users = Array.from({ length: USERS }, () => ({ id: randomUUID(), token: '' }));
  return {
    users,
    chats: Array.from({ length: USERS / 2 }, (_, k) => [users[2 * k]!.id, users[2 * k + 1]!.id]),
    groups: Array.from({ length: GROUPS }, (_, g) => ({
      id: randomUUID(),
      members: Array.from({ length: GROUP_SIZE }, (_, j) => users[(g * GROUP_SIZE + j) % USERS]!.id),
    })),
  };
};
for (const run of RUNS) {
  console.log(`running ${run}…`);
  if (run === 'echo') results.push(await runEcho(seedForEcho()));
  if (run === 'pglite') results.push(await runServer('server, PGlite', RATE_PGLITE, {}, 1));
  if (run === 'pg')
    results.push(await withPostgres((url) => runServer('server, PostgreSQL', RATE, { DATABASE_URL: url }, 1)));
  if (run === 'pg2') {
    results.push(await withPostgres((url) => runServer('2 servers, one PostgreSQL', RATE, { DATABASE_URL: url }, 2)));
  }
}
report(results);
