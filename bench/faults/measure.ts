// What every fault case measures the same way: when the service was back after a fault, and what students saw.
import { sleep } from '../chat/util.ts';
import type { Harness } from './harness.ts';
import { tallySamples } from './harness.ts';
import { describeErrors } from './students.ts';

/**
 * Milliseconds from `since` (performance.now(), the fault's end) until the service is whole again: /api/health/ready
 * answers 200, every socket is live (reconnected and resynced), and every message written before `since` is
 * acknowledged. Null when that does not happen within `timeoutMs`.
 */
export async function backAfter(h: Harness, since: number, timeoutMs = 30_000): Promise<number | null> {
  let missing = '';
  // When each condition first held (ms after `since`): which one came last is what kept the service from being back.
  const first: Record<'ready' | 'live' | 'acked', number | null> = { ready: null, live: null, acked: null };
  const parts = () =>
    Object.entries(first)
      .map(([k, v]) => `${k} ${v === null ? 'never' : Math.round(v)}`)
      .join(', ');
  for (const deadline = since + timeoutMs; performance.now() < deadline; await sleep(10)) {
    const oldest = h.students.oldestPending();
    const writesDone = oldest === null || oldest >= since;
    const readyAt = h.ready.samples.find((s) => s.at >= since && s.status === 200);
    const readyAgain = readyAt !== undefined;
    const live = h.students.liveCount();
    const now = performance.now() - since;
    if (readyAt) first.ready ??= readyAt.at + readyAt.ms - since;
    if (live === h.students.size) first.live ??= now;
    if (writesDone) first.acked ??= now;
    if (writesDone && readyAgain && live === h.students.size) {
      h.backParts.push(parts());
      return now;
    }
    missing = [
      writesDone ? '' : `${h.students.pending()} messages waiting for their ack`,
      readyAgain ? '' : `no ready answer yet (${h.ready.after(since).length} probes answered)`,
      live === h.students.size ? '' : `${h.students.size - live} sockets not live`,
    ]
      .filter(Boolean)
      .join(', ');
  }
  h.backParts.push(parts());
  h.notBack.push(`not back within ${timeoutMs / 1000} s: ${missing}`);
  return null;
}

/** What students saw from `since` on: socket errors and closes, HTTP writes, readiness, document uploads. */
export function sawSince(h: Harness, since: number): string {
  const parts = [
    describeErrors(h.students.figures().errors),
    ...tallySamples(
      h.writes.after(since).filter((s) => s.status !== 201),
      'http write',
    ),
    ...tallySamples(
      h.ready.after(since).filter((s) => s.status !== 200),
      'ready',
    ),
  ].filter((p) => p !== 'none');
  const slowest = Math.max(0, ...h.writes.after(since).map((s) => s.ms), ...h.ready.after(since).map((s) => s.ms));
  return `${parts.join(', ') || 'none'}; slowest answer ${Math.round(slowest)} ms`;
}
