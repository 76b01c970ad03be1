// The real server (its build, dist/main.js) in a child process of its own, for tests and benchmarks that need its
// own memory and event loop, or a real crash and restart.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { builtEntry, serverRoot } from './built-entry.ts';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

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

/** A server on loopback at `port`, on PGlite in `dataDir` (unless `extra` sets DATABASE_URL), without rate limits. */
export function serverEnv(dataDir: string, port: number, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    RATE_LIMITS: 'false',
    ...extra,
  };
}

export const lastLines = (text: string, lines: number) => text.trimEnd().split('\n').slice(-lines).join('\n');

export interface SpawnServerOptions {
  dataDir: string;
  /** A free one by default; a restart passes the one it had, so its clients find it again. */
  port?: number;
  /** Settings on top of serverEnv's. */
  env?: NodeJS.ProcessEnv;
  /**
   * The server package to run from its TypeScript sources through tsx (another checkout's, to compare before and
   * after); by default this one's build (built-entry.ts).
   */
  serverDir?: string;
  /** Appends its output to this file instead of keeping it in memory. */
  logFile?: string;
  startTimeoutMs?: number;
  /** Extra node flags, e.g. `--cpu-prof` to profile the server. */
  nodeArgs?: string[];
}

export interface SpawnedServer {
  child: ChildProcess;
  pid: number;
  port: number;
  base: string;
  logs(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** How it ended ('exited with code 1', 'killed by SIGKILL'); null while it runs. */
  ended(): string | null;
  /** SIGTERM (a graceful shutdown), SIGKILL if it is still there after `graceMs`; resolves once it is gone. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL; resolves once it is gone. */
  kill(): Promise<void>;
}

/** Servers still running: killed when this process exits. */
const live = new Set<ChildProcess>();
process.once('exit', () => live.forEach((c) => c.kill('SIGKILL')));

/** Starts the server and waits until GET /api/health answers 200. */
export async function spawnServer(opts: SpawnServerOptions): Promise<SpawnedServer> {
  const port = opts.port ?? (await freePort());
  const base = `http://127.0.0.1:${port}`;
  const fd = opts.logFile ? openSync(opts.logFile, 'a') : undefined;
  const entry = opts.serverDir ? ['--import', 'tsx', 'src/main.ts'] : builtEntry('main');
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), ...entry], {
    cwd: opts.serverDir ?? serverRoot,
    env: serverEnv(opts.dataDir, port, opts.env),
    stdio: ['ignore', fd ?? 'pipe', fd ?? 'pipe'],
  });
  let output = '';
  if (fd !== undefined) closeSync(fd);
  else for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (d: Buffer) => (output += d.toString()));
  live.add(child);
  let ended: string | null = null;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => {
      live.delete(child);
      ended = signal ? `killed by ${signal}` : `exited with code ${code}`;
      resolve({ code, signal, at: Date.now() });
    }),
  );
  const logs = () => {
    if (!opts.logFile) return output;
    try {
      return readFileSync(opts.logFile, 'utf8');
    } catch {
      return '';
    }
  };
  const server: SpawnedServer = {
    child,
    pid: child.pid!,
    port,
    base,
    logs,
    exited,
    ended: () => ended,
    async stop(graceMs = 10_000) {
      if (ended) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
    async kill() {
      if (!ended) child.kill('SIGKILL');
      await exited;
    },
  };
  const timeoutMs = opts.startTimeoutMs ?? 90_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (server.ended()) throw new Error(`server ${server.ended()}:\n${lastLines(logs(), 30)}`);
    if ((await probeHealth(base, 2000)).status === 200) return server;
    if (Date.now() > deadline) {
      await server.kill();
      throw new Error(`server did not start in ${timeoutMs} ms:\n${lastLines(logs(), 30)}`);
    }
    await sleep(100);
  }
}
