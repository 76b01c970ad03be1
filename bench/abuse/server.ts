// The server under test: a child process (so its memory is its own), its process tree's RSS, and the
// /api/health prober that times every probe on its own connection.
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readdirSync, readFileSync, writeFileSync, closeSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import path from 'node:path';

export const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

/** Environment of every server the bench starts (loopback only; production-like limits). */
export function serverEnv(dataDir: string, port: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    // Each actor of the bench sends its own X-Forwarded-For, as clients behind a reverse proxy would.
    TRUST_PROXY: 'true',
    RATE_LIMITS: 'true',
  };
}

/** Servers still running: killed if the bench itself is stopped. */
const live = new Set<ChildProcess>();
process.once('exit', () => live.forEach((c) => c.kill('SIGKILL')));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

export interface RunningServer {
  child: ChildProcess;
  pid: number;
  base: string;
  logFile: string;
  exited: () => string | null;
  stop(): Promise<void>;
}

/** Starts `packages/server/src/main.ts` of the tree at `root` and waits until /api/health answers. */
export async function startServer(root: string, dataDir: string, timeoutMs = 120_000): Promise<RunningServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const logFile = path.join(dataDir, 'server.log');
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: root,
    env: serverEnv(dataDir, port),
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  live.add(child);
  child.once('exit', () => live.delete(child));
  let exit: string | null = null;
  child.once('exit', (code, signal) => (exit = signal ? `killed by ${signal}` : `exited with code ${code}`));
  const started = Date.now();
  for (;;) {
    if (exit) throw new Error(`server ${exit}:\n${tail(logFile)}`);
    const probe = await probeHealth(base, 2000);
    if (probe.status === 200) break;
    if (Date.now() - started > timeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`server did not start in ${timeoutMs} ms:\n${tail(logFile)}`);
    }
    await sleep(100);
  }
  return {
    child,
    pid: child.pid!,
    base,
    logFile,
    exited: () => exit,
    async stop() {
      if (exit) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await gone;
      clearTimeout(timer);
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function tail(file: string, lines = 15): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** One GET /api/health on a fresh connection: status (0 when it failed) and milliseconds. */
export function probeHealth(base: string, timeoutMs: number): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(`${base}/api/health`, { agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      res.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end();
  });
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
