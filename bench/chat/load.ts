// The load of the chat benchmark, the same for every server: who talks to whom, a step at a fixed rate with
// every delivery timed (send → receive), and the ramp that raises the rate until a step fails.
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { databaseCounters, databaseCpu, databaseCpuSince, pctSorted, procStats, sleep } from './util.ts';

export interface Conversation {
  kind: 'chat' | 'group';
  /** Index in its list (chats or groups) of the population. */
  index: number;
  /** User indexes. */
  members: number[];
}

/** Users 2k and 2k+1 share a chat; groups are runs of consecutive users. Every server gets this same one. */
export interface Population {
  users: number;
  chats: Conversation[];
  groups: Conversation[];
}

export const GROUP_SIZE = 10;
/** Share of messages sent to groups (each reaches 9 others); the rest go to one-to-one chats. */
export const GROUP_SHARE = 0.2;

export function population(users: number, groups: number): Population {
  return {
    users,
    chats: Array.from({ length: Math.floor(users / 2) }, (_, k) => ({
      kind: 'chat' as const,
      index: k,
      members: [2 * k, 2 * k + 1],
    })),
    groups: Array.from({ length: groups }, (_, g) => ({
      kind: 'group' as const,
      index: g,
      members: Array.from({ length: GROUP_SIZE }, (_, j) => (g * GROUP_SIZE + j) % users),
    })),
  };
}

/** The conversations whose members are all among the first `senders` users. */
export function talkers(pop: Population, senders: number): { chats: Conversation[]; groups: Conversation[] } {
  const within = (c: Conversation) => c.members.every((m) => m < senders);
  return { chats: pop.chats.filter(within), groups: pop.groups.filter(within) };
}

export interface Handlers {
  delivered(receiver: number, id: string): void;
  acked(id: string): void;
  /** The server refused or failed a message (an error frame or stanza). */
  failed(id: string | undefined, detail: string): void;
}

/** A server with the population connected: one socket or XMPP session per user. */
export interface Target {
  name: string;
  /** Server processes whose CPU and memory are measured. */
  pids: number[];
  /** The PostgreSQL database whose backends' CPU is measured. */
  database?: string;
  /** Whether the server acknowledges each stored message to its sender (ours: after the commit). */
  acks: boolean;
  send(sender: number, conv: Conversation, id: string): void;
  listen(handlers: Handlers): void;
  /** What the server stored of the messages sent so far (a line to print), to show they are durable. */
  stored?(sent: { chat: number; group: number }): Promise<string>;
  close(): Promise<void>;
}

export interface StepResult {
  rate: number;
  seconds: number;
  /** Seconds from the first send to the end of the drain (the span CPU figures are averaged over). */
  elapsed: number;
  sent: number;
  acked: number;
  failed: number;
  deliveries: number;
  lost: number;
  duplicated: number;
  p50: number;
  p95: number;
  p99: number;
  ackP99: number;
  /** Server processes' CPU (1 = one core) and largest resident memory. */
  cpu: number;
  rssMb: number;
  /** The database backends' CPU (PostgreSQL runs). */
  dbCpu: number | null;
  /** Transactions committed in the database per message sent (PostgreSQL runs; every statement outside one is one). */
  xactsPerMessage: number | null;
  /** The bench process (all clients): CPU and event-loop delay p99, to show it kept up. */
  clientCpu: number;
  clientLagP99: number;
  load1: number;
  held: boolean;
}

interface Pending {
  t0: number;
  receivers: number[];
  got: Uint8Array;
  acked: boolean;
}

/** Drives one target; messages of one step are matched by id, later deliveries of an earlier step are ignored. */
export class Driver {
  private pending = new Map<string, Pending>();
  private latencies: number[] = [];
  private ackLatencies: number[] = [];
  private acked = 0;
  private failures = 0;
  private failureShown = 0;
  /** Messages sent so far, every step together. */
  readonly sent = { chat: 0, group: 0 };

  constructor(
    private readonly target: Target,
    private readonly convs: { chats: Conversation[]; groups: Conversation[] },
  ) {
    target.listen({
      delivered: (receiver, id) => {
        const m = this.pending.get(id);
        if (!m) return;
        const k = m.receivers.indexOf(receiver);
        if (k < 0) return;
        if (m.got[k]! < 255) m.got[k]! += 1;
        if (m.got[k] === 1) this.latencies.push(performance.now() - m.t0);
      },
      acked: (id) => {
        const m = this.pending.get(id);
        if (!m || m.acked) return;
        m.acked = true;
        this.acked++;
        this.ackLatencies.push(performance.now() - m.t0);
      },
      failed: (_id, detail) => {
        this.failures++;
        if (this.failureShown++ < 3) console.error(`  ${target.name}: server error: ${detail.slice(0, 200)}`);
      },
    });
  }

  /** Sends at `rate` messages/s for `seconds`, waits up to `drainMs` for the last deliveries, and measures. */
  async step(rate: number, seconds: number, drainMs: number, p99Limit: number): Promise<StepResult> {
    this.pending = new Map();
    this.latencies = [];
    this.ackLatencies = [];
    this.acked = 0;
    this.failures = 0;
    const { chats, groups } = this.convs;
    const pids = this.target.pids;
    const before = pids.map(procStats);
    const db0 = this.target.database ? databaseCpu(this.target.database) : null;
    const counters0 = this.target.database ? await databaseCounters(this.target.database) : null;
    const clientCpu0 = process.cpuUsage();
    const lag = monitorEventLoopDelay({ resolution: 2 });
    lag.enable();
    let rssMb = 0;
    const sampleRss = () =>
      (rssMb = Math.max(
        rssMb,
        pids.reduce((s, pid) => s + procStats(pid).rssMb, 0),
      ));
    const sampler = setInterval(sampleRss, 1000);
    const start = performance.now();
    const total = Math.round(rate * seconds);
    let expected = 0;
    let count = 0;
    while (count < total) {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate));
      for (; count < due; count++) {
        const conv =
          groups.length && Math.random() < GROUP_SHARE ? groups[count % groups.length]! : chats[count % chats.length]!;
        const sender = conv.members[Math.floor(Math.random() * conv.members.length)]!;
        const id = randomUUID();
        const receivers = conv.members.filter((m) => m !== sender);
        expected += receivers.length;
        this.sent[conv.kind]++;
        this.pending.set(id, { t0: performance.now(), receivers, got: new Uint8Array(receivers.length), acked: false });
        this.target.send(sender, conv, id);
      }
      await sleep(2);
    }
    const sendSeconds = (performance.now() - start) / 1000;
    const settled = () =>
      this.latencies.length >= expected && (!this.target.acks || this.acked + this.failures >= total);
    for (const deadline = Date.now() + drainMs; Date.now() < deadline && !settled(); ) await sleep(20);
    await sleep(200);
    clearInterval(sampler);
    sampleRss();
    const after = pids.map(procStats);
    const db1 = this.target.database ? databaseCpu(this.target.database) : null;
    // Backends report their counts once idle for a moment.
    const counters1 = this.target.database
      ? await sleep(1500).then(() => databaseCounters(this.target.database!))
      : null;
    lag.disable();
    const clientCpu = process.cpuUsage(clientCpu0);
    const elapsed = (performance.now() - start) / 1000;
    let lost = 0;
    let duplicated = 0;
    for (const m of this.pending.values()) {
      for (const n of m.got) {
        if (n === 0) lost++;
        if (n > 1) duplicated += n - 1;
      }
    }
    const lat = Float64Array.from(this.latencies).sort();
    const ack = Float64Array.from(this.ackLatencies).sort();
    const p99 = pctSorted(lat, 99);
    const result: StepResult = {
      rate,
      seconds: sendSeconds,
      elapsed,
      sent: total,
      acked: this.acked,
      failed: this.failures,
      deliveries: lat.length,
      lost,
      duplicated,
      p50: pctSorted(lat, 50),
      p95: pctSorted(lat, 95),
      p99,
      ackP99: pctSorted(ack, 99),
      cpu: after.reduce((s, a, i) => s + a.cpu - before[i]!.cpu, 0) / elapsed,
      rssMb,
      dbCpu: db0 && db1 ? databaseCpuSince(db0, db1) / elapsed : null,
      xactsPerMessage: counters0 && counters1 ? (counters1.xacts - counters0.xacts) / total : null,
      clientCpu: (clientCpu.user + clientCpu.system) / 1e6 / elapsed,
      clientLagP99: lag.percentile(99) / 1e6,
      load1: loadavg()[0]!,
      held:
        p99 <= p99Limit &&
        lost === 0 &&
        duplicated === 0 &&
        this.failures === 0 &&
        (!this.target.acks || this.acked === total),
    };
    this.pending = new Map();
    this.latencies = [];
    this.ackLatencies = [];
    return result;
  }
}

export interface RampOptions {
  /** Seconds at the first rate before the ramp, not counted (JIT, caches, connection pools: both servers). */
  warmupSeconds: number;
  rates: number[];
  seconds: number;
  drainMs: number;
  p99Limit: number;
  /** Steps up to this rate always run (the table's reference rate), even after a failed one. */
  atLeast: number;
}

export interface RampResult {
  steps: StepResult[];
  /** The highest rate held with every step below it held too (0: not even the first). */
  held: number;
  /** Whether the last rate tried held (the ramp ran out of steps, so the server may hold more). */
  capped: boolean;
}

export const fmt = (n: number | null | undefined, digits = 1) =>
  n === null || n === undefined || !Number.isFinite(n) ? '–' : n.toFixed(digits);

export function describeStep(name: string, s: StepResult): string {
  return (
    `  ${name}: ${String(s.rate).padStart(5)} msg/s  p50 ${fmt(s.p50)}  p95 ${fmt(s.p95)}  p99 ${fmt(s.p99)} ms` +
    `  lost ${s.lost}  dup ${s.duplicated}  failed ${s.failed}  CPU ${fmt(s.cpu * 100, 0)}%` +
    (s.dbCpu === null ? '' : `  DB ${fmt(s.dbCpu * 100, 0)}%`) +
    (s.xactsPerMessage === null ? '' : `  xacts/msg ${fmt(s.xactsPerMessage, 2)}`) +
    `  per 1,000 msgs: server ${fmt((s.cpu * s.elapsed * 1000) / s.sent, 2)} CPU-s` +
    (s.dbCpu === null ? '' : ` DB ${fmt((s.dbCpu * s.elapsed * 1000) / s.sent, 2)} CPU-s`) +
    `  RSS ${fmt(s.rssMb, 0)} MB  client ${fmt(s.clientCpu * 100, 0)}% lag ${fmt(s.clientLagP99)} ms` +
    `  load ${fmt(s.load1, 2)}  ${s.held ? 'held' : 'NOT HELD'}`
  );
}

export async function ramp(driver: Driver, name: string, opts: RampOptions): Promise<RampResult> {
  const steps: StepResult[] = [];
  let held = 0;
  let failed = false;
  if (opts.warmupSeconds > 0) await driver.step(opts.rates[0]!, opts.warmupSeconds, opts.drainMs, opts.p99Limit);
  for (const rate of opts.rates) {
    if (failed && rate > opts.atLeast) break;
    const s = await driver.step(rate, opts.seconds, opts.drainMs, opts.p99Limit);
    steps.push(s);
    console.log(describeStep(name, s));
    if (!s.held) failed = true;
    else if (!failed) held = rate;
  }
  return { steps, held, capped: !failed };
}
