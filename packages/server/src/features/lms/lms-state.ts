import type { AppContext } from '../../platform/context.ts';
import type { CanvasClientOptions } from './canvas-client.ts';
import { CanvasGates } from './canvas-gate.ts';

/** Per-app state of the LMS feature: per-user request gates, loads in flight, and test hooks (clock, timings). */
export interface LmsState {
  gates: CanvasGates;
  now: () => Date;
  /** Timings for Canvas clients (tests shorten back-off and timeouts). */
  client: Partial<Pick<CanvasClientOptions, 'timeoutMs' | 'maxRetries' | 'backoffMs' | 'maxBackoffMs' | 'perPage'>>;
  /** Non-forced coursework loads in flight, shared by identical concurrent requests. */
  loads: Map<string, Promise<unknown>>;
}

const states = new WeakMap<AppContext, LmsState>();

export function lmsState(ctx: AppContext): LmsState {
  let s = states.get(ctx);
  if (!s) {
    s = { gates: new CanvasGates(6), now: () => new Date(), client: {}, loads: new Map() };
    states.set(ctx, s);
  }
  return s;
}

/** Tests: a fake clock, shorter Canvas timings. */
export function configureLms(ctx: AppContext, changes: Partial<Pick<LmsState, 'now' | 'client'>>): void {
  Object.assign(lmsState(ctx), changes);
}
