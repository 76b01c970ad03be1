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
  for (const deadline = since + timeoutMs; performance.now() < deadline; await sleep(10)) {
    const oldest = h.students.oldestPending();
    const writesDone = oldest === null || oldest >= since;
    const readyAgain = h.ready.samples.some((s) => s.at >= since && s.status === 200);
    const live = h.students.liveCount();
    if (writesDone && readyAgain && live === h.students.size) return performance.now() - since;
    missing = [
      writesDone ? '' : `${h.students.pending()} messages waiting for their ack`,
      readyAgain ? '' : `no ready answer yet (${h.ready.after(since).length} probes answered)`,
      live === h.students.size ? '' : `${h.students.size - live} sockets not live`,
    ]
      .filter(Boolean)
      .join(', ');
  }
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
