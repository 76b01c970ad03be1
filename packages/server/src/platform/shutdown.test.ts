import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createShutdown, type ShutdownLog } from './shutdown.ts';

function harness(close: () => Promise<unknown>) {
  const order: string[] = [];
  const exits: number[] = [];
  const lines: string[] = [];
  const log: ShutdownLog = {
    info: (_o, msg) => void lines.push(`info ${msg}`),
    warn: (_o, msg) => void lines.push(`warn ${msg}`),
    error: (_o, msg) => void lines.push(`error ${msg}`),
  };
  const app = {
    close: async () => {
      order.push('app.close');
      await close();
      order.push('app.closed');
    },
    server: { closeIdleConnections: () => undefined },
  };
  const shutdown = createShutdown({
    app,
    log,
    also: [async () => void order.push('also')],
    timeoutMs: 10_000,
    repeatGraceMs: 1000,
    exit: (code) => void exits.push(code),
  });
  shutdown.onStart(() => order.push('ready off'));
  return { shutdown, order, exits, lines };
}

describe('graceful shutdown', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('turns readiness off first, closes the app, then the rest, and exits 0', async () => {
    const h = harness(() => new Promise((r) => setTimeout(r, 2000)));
    const proc = new EventEmitter();
    h.shutdown.listen(proc as unknown as NodeJS.Process);
    proc.emit('SIGTERM');
    expect(h.shutdown.stopping).toBe(true);
    await vi.advanceTimersByTimeAsync(1999);
    expect(h.order).toEqual(['ready off', 'app.close']);
    expect(h.exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.order).toEqual(['ready off', 'app.close', 'app.closed', 'also']);
    expect(h.exits).toEqual([0]);
  });

  it('exits 1 with a log line when closing takes longer than the limit', async () => {
    const h = harness(() => new Promise(() => undefined));
    h.shutdown.shutdown('SIGTERM');
    await vi.advanceTimersByTimeAsync(9999);
    expect(h.exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.exits).toEqual([1]);
    expect(h.lines).toContain('error shutdown did not finish within 10 s; exiting');
  });

  it('exits at once on a second signal, but counts a repeat within the grace as the same one', async () => {
    const h = harness(() => new Promise(() => undefined));
    h.shutdown.shutdown('SIGINT');
    await vi.advanceTimersByTimeAsync(10);
    // The terminal's Ctrl-C and the wrapper's forwarded copy arrive together.
    h.shutdown.shutdown('SIGINT');
    expect(h.exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1500);
    h.shutdown.shutdown('SIGTERM');
    expect(h.exits).toEqual([143]);
    expect(h.order).toEqual(['ready off', 'app.close']);
  });

  it('exits 1 when closing fails', async () => {
    const h = harness(() => Promise.reject(new Error('database gone')));
    h.shutdown.shutdown('SIGTERM');
    await vi.advanceTimersByTimeAsync(0);
    expect(h.exits).toEqual([1]);
    expect(h.lines).toContain('error shutdown failed');
  });
});
