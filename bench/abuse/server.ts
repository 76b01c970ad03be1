// The server under test (a child process, so its memory is its own: spawn-server.ts), its process tree's RSS, and
// the /api/health watch that times every probe on its own connection.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  probeHealth,
  serverEnv as testServerEnv,
  sleep,
  spawnServer,
  type SpawnedServer,
} from '../../packages/server/src/test/spawn-server.ts';

export { lastLines, sleep } from '../../packages/server/src/test/spawn-server.ts';

/** Settings of every server the bench starts (loopback only; production-like limits). */
const BENCH_ENV = {
  NODE_ENV: 'production',
  // Each actor of the bench sends its own X-Forwarded-For, as clients behind a reverse proxy would.
  TRUST_PROXY: 'true',
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
 * Probes /api/health every 250 ms (each probe on its own connection, so a stalled one never delays the next)
 * and samples the tree's RSS every 250 ms, until stopped.
 */
export function watch(server: RunningServer, everyMs = 250) {
  const baselineKb = treeRssKb(server.pid);
  const hwmReset = resetPeak(server.pid);
  let peakKb = baselineKb;
  const pending = new Map<number, number>();
  const done: { status: number; ms: number }[] = [];
  let next = 0;
  const tick = () => {
    peakKb = Math.max(peakKb, treeRssKb(server.pid));
    const id = next++;
    pending.set(id, performance.now());
    void probeHealth(server.base, 120_000).then((r) => {
      pending.delete(id);
      done.push(r);
    });
  };
  tick();
  const timer = setInterval(tick, everyMs);
  return {
    /** Stops probing; a probe still out gets up to `graceMs` to answer, then counts by how long it waited. */
    async stop(graceMs = 3000): Promise<Watch> {
      clearInterval(timer);
      peakKb = Math.max(peakKb, hwmReset ? treePeakKb(server.pid) : treeRssKb(server.pid));
      const until = performance.now() + graceMs;
      while (pending.size && performance.now() < until) await sleep(20);
      const now = performance.now();
      const waiting = [...pending.values()].map((t) => now - t);
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
