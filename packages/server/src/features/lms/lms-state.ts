import type { AppContext } from '../../platform/context.ts';
import type { CanvasClientOptions } from './canvas-client.ts';
import { CanvasGates } from './canvas-gate.ts';

/** State of the LMS service, one per app: per-user request gates, loads in flight, the clock, Canvas timings. */
export interface LmsState {
  gates: CanvasGates;
  now: () => Date;
  /** Timings for Canvas clients (tests shorten back-off and timeouts). */
  client: Partial<Pick<CanvasClientOptions, 'timeoutMs' | 'maxRetries' | 'backoffMs' | 'maxBackoffMs' | 'perPage'>>;
  /** Non-forced coursework loads in flight, shared by identical concurrent requests. */
  loads: Map<string, Promise<unknown>>;
}

/** What an app may build the LMS feature with instead of its defaults (tests: a fake clock, shorter timings). */
export type LmsOptions = Partial<Pick<LmsState, 'now' | 'client'>>;

export function newLmsState(options: LmsOptions = {}): LmsState {
  return { gates: new CanvasGates(6), now: () => new Date(), client: {}, loads: new Map(), ...options };
}

/** The LMS service's functions run with the app's context and the service's state. */
export interface Lms {
  ctx: AppContext;
  state: LmsState;
}
