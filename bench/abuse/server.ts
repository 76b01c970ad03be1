// The server under test (a child process, so its memory is its own: spawn-server.ts), its process tree's RSS, and
// the /api/health watch that times every probe on its own connection.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  serverEnv as testServerEnv,
  spawnServer,
  type SpawnedServer,
} from '../../packages/server/src/test/spawn-server.ts';

export { lastLines, sleep } from '../../packages/server/src/test/spawn-server.ts';

/** Settings of every server the bench starts (loopback only; production-like limits). */
const BENCH_ENV = {
  NODE_ENV: 'production',
  // The bench stands in for the one reverse proxy: each actor's X-Forwarded-For ends with the address the proxy
  // would have seen (a client's forged entries before it are ignored).
  TRUST_PROXY: '1',
  RATE_LIMITS: 'true',
};

export const serverEnv = (dataDir: string, port: number) => testServerEnv(dataDir, port, BENCH_ENV);

// Servers still running are killed when the bench exits (spawn-server.ts), and so when it is stopped.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

export type RunningServer = SpawnedServer;

/** Starts `packages/server/src/main.ts` of the tree at `root` and waits until /api/health answers. */
export async function startServer(root: string, dataDir: string, timeoutMs = 120_000): Promise<RunningServer> {
  const server = await spawnServer({
    dataDir,
    serverDir: path.join(root, 'packages/server'),
    env: BENCH_ENV,
    logFile: path.join(dataDir, 'server.log'),
    startTimeoutMs: timeoutMs,
    nodeArgs: (process.env.ABUSE_NODE_ARGS ?? '').split(' ').filter(Boolean),
  });
  // A server a case left stalled gets 3 s to stop before it is killed.
  return { ...server, stop: (graceMs = 3000) => server.stop(graceMs) };
}

/** The server and every process it started (a worker process would count towards its memory). */
function processTree(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(parents.get(tree[i]!) ?? []));
  return tree;
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return Number(m?.[1] ?? 0);
  } catch {
    return 0;
  }
}

export const treeRssKb = (pid: number) => processTree(pid).reduce((sum, p) => sum + statusKb(p, 'VmRSS'), 0);
export const treePeakKb = (pid: number) => processTree(pid).reduce((sum, p) => sum + statusKb(p, 'VmHWM'), 0);

/** Resets the kernel's peak-RSS mark (VmHWM) of the tree, so it holds the peak of what follows only. */
export function resetPeak(pid: number): boolean {
  let ok = true;
  for (const p of processTree(pid)) {
    try {
      writeFileSync(`/proc/${p}/clear_refs`, '5');
    } catch {
      ok = false;
    }
  }
  return ok;
}

export interface Watch {
  /** Slowest health probe, counting one still unanswered at the end by how long it has waited. */
  slowestProbeMs: number;
  probes: number;
  failedProbes: number;
  baselineKb: number;
  peakKb: number;
}

/**
 * The health prober, on a thread of its own: the cases send hundreds of megabytes from the bench's main thread,
 * and a probe timed there would count the bench's own busy moments as the server's. Each probe goes on its own
 * connection, so a stalled one never delays the next. Plain JavaScript (node built-ins only).
 */
const PROBER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { request } = require('node:http');
const { base, everyMs } = workerData;
const pending = new Map();
const done = [];
let next = 0;
const probe = () => {
  const id = next++;
  const started = performance.now();
  pending.set(id, started);
  const finish = (status) => {
    pending.delete(id);
    done.push({ status, ms: performance.now() - started });
  };
  const req = request(base + '/api/health', { agent: false, timeout: 120000 }, (res) => {
    res.resume();
    res.on('end', () => finish(res.statusCode || 0));
    res.on('error', () => finish(0));
  });
  req.on('timeout', () => req.destroy(new Error('timeout')));
  req.on('error', () => finish(0));
  req.end();
};
probe();
const timer = setInterval(probe, everyMs);
parentPort.on('message', ({ graceMs }) => {
  clearInterval(timer);
  const until = performance.now() + graceMs;
  const report = () => {
    if (pending.size && performance.now() < until) return setTimeout(report, 20);
    const now = performance.now();
    parentPort.postMessage({ done, waiting: [...pending.values()].map((t) => now - t) });
  };
  report();
});
`;

interface ProbeReport {
  done: { status: number; ms: number }[];
  /** How long each probe still unanswered at the end had waited. */
  waiting: number[];
}

/** Probes /api/health every 250 ms (on the prober thread) and samples the tree's RSS every 250 ms, until stopped. */
export function watch(server: RunningServer, everyMs = 250) {
  const baselineKb = treeRssKb(server.pid);
  const hwmReset = resetPeak(server.pid);
  let peakKb = baselineKb;
  const prober = new Worker(PROBER_SOURCE, { eval: true, workerData: { base: server.base, everyMs } });
  const sample = () => {
    peakKb = Math.max(peakKb, treeRssKb(server.pid));
  };
  const timer = setInterval(sample, everyMs);
  return {
    /** Stops probing; a probe still out gets up to `graceMs` to answer, then counts by how long it waited. */
    async stop(graceMs = 3000): Promise<Watch> {
      clearInterval(timer);
      peakKb = Math.max(peakKb, hwmReset ? treePeakKb(server.pid) : treeRssKb(server.pid));
      const report = new Promise<ProbeReport>((resolve, reject) => {
        prober.once('message', resolve);
        prober.once('error', reject);
      });
      prober.postMessage({ graceMs });
      const { done, waiting } = await report;
      await prober.terminate();
      return {
        slowestProbeMs: Math.max(0, ...done.map((d) => d.ms), ...waiting),
        probes: done.length + waiting.length,
        failedProbes: done.filter((d) => d.status !== 200).length + waiting.length,
        baselineKb,
        peakKb,
      };
    },
  };
}
