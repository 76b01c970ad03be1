import { constants } from 'node:os';

/** What a graceful shutdown closes: the Fastify app (its own hooks close sockets, jobs, realtime and database). */
export interface ShutdownTarget {
  close(): Promise<unknown>;
  server: { closeIdleConnections?(): void };
}

export interface ShutdownLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ShutdownOptions {
  app: ShutdownTarget;
  log: ShutdownLog;
  /** Closed after the app, in order (the demo emulators). */
  also?: Array<() => Promise<unknown> | undefined>;
  /** Longest a shutdown may take before the process exits with code 1 anyway. */
  timeoutMs?: number;
  /**
   * Signals this soon after the first are the same request, not a second one: Ctrl-C reaches every process of
   * the terminal's group (npm, `npm start`'s wrapper and the server) and each wrapper forwards it again, and
   * systemd signals the whole control group.
   */
  repeatGraceMs?: number;
  exit?: (code: number) => void;
}

export interface GracefulShutdown {
  /** Runs first, before anything closes (readiness turns false here, so a load balancer stops sending). */
  onStart(fn: () => void): void;
  /** Starts the shutdown; a second request once it runs exits at once. */
  shutdown(signal: string): void;
  /** Shuts down on SIGTERM and SIGINT. */
  listen(proc?: Pick<NodeJS.Process, 'on'>): void;
  readonly stopping: boolean;
}

export const SHUTDOWN_TIMEOUT_MS = 10_000;

/** 128 + the signal's number, as a shell reports a process ended by it; 1 for anything else. */
function signalExitCode(signal: string): number {
  const n = (constants.signals as Record<string, number | undefined>)[signal];
  return n ? 128 + n : 1;
}

/**
 * Graceful shutdown and restart (issue 14). The close sequence, in order:
 * 1. `onStart` listeners (readiness off);
 * 2. `app.close()`: new requests are refused with 503 (`return503OnClosing`) and no new connection is
 *    accepted; every WebSocket is closed with 1012 "service restart" (clients reconnect with back-off and resync
 *    from their cursor; the web outbox resends what was not acknowledged, by its id); the document job queue
 *    stops and hands its running job back (its finished pages are kept); in-flight requests finish; then the
 *    realtime bus (LISTEN/NOTIFY) and the database close;
 * 3. the `also` closers.
 * It exits 0 when done, or 1 after `timeoutMs` (logged).
 */
export function createShutdown(options: ShutdownOptions): GracefulShutdown {
  const { app, log } = options;
  const timeoutMs = options.timeoutMs ?? SHUTDOWN_TIMEOUT_MS;
  const repeatGraceMs = options.repeatGraceMs ?? 1000;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const starters: Array<() => void> = [];
  let startedAt: number | null = null;

  async function run(signal: string) {
    const started = Date.now();
    const hardStop = setTimeout(() => {
      log.error({ signal, timeoutMs }, `shutdown did not finish within ${timeoutMs / 1000} s; exiting`);
      exit(1);
    }, timeoutMs);
    // A keep-alive connection whose request has just finished would hold server.close() until its idle timeout.
    const sweep = setInterval(() => app.server.closeIdleConnections?.(), 100);
    try {
      for (const fn of starters) {
        try {
          fn();
        } catch (err) {
          log.warn({ err }, 'shutdown: a start listener failed');
        }
      }
      await app.close();
      for (const close of options.also ?? []) await close();
      clearTimeout(hardStop);
      log.info({ signal, ms: Date.now() - started }, 'stopped');
      exit(0);
    } catch (err) {
      clearTimeout(hardStop);
      log.error({ err, signal }, 'shutdown failed');
      exit(1);
    } finally {
      clearInterval(sweep);
    }
  }

  const shutdown = (signal: string) => {
    if (startedAt === null) {
      startedAt = Date.now();
      log.info({ signal }, `${signal}: shutting down (a second signal exits at once)`);
      void run(signal);
      return;
    }
    if (Date.now() - startedAt < repeatGraceMs) return;
    log.warn({ signal }, `${signal} again: exiting at once`);
    exit(signalExitCode(signal));
  };

  return {
    onStart: (fn) => void starters.push(fn),
    shutdown,
    listen(proc = process) {
      for (const signal of ['SIGTERM', 'SIGINT'] as const) proc.on(signal, () => shutdown(signal));
    },
    get stopping() {
      return startedAt !== null;
    },
  };
}
