import { MSG } from '@studybuddy/shared/messages';
import { AppError } from '../../platform/errors.ts';
import type { NlpRequest } from './extraction/extract-types.ts';
import { WorkerLane, type LaneOptions } from './extraction/worker-lane.ts';

/** A request that did not finish within its lane's time budget (its worker is stopped). */
export class NlpTimeout extends AppError {
  constructor() {
    super(422, 'text_too_slow', MSG.courses.textTooSlow);
  }
}

/**
 * Summaries, sections and answers on a worker thread of their own, apart from extraction and OCR, so a
 * student's summary never waits behind someone's long OCR job. Each request has a time budget, counted from
 * when it is asked (waiting included): past it the request fails with `NlpTimeout` and, if it was running,
 * its worker is stopped and the next request gets a fresh one.
 */
export class NlpLane {
  private readonly lane: WorkerLane;

  constructor(
    readonly budgetMs: number,
    options: LaneOptions = {},
  ) {
    // The lane's own stall timer is only a backstop: the budget below ends a request first.
    this.lane = new WorkerLane({ idleMs: 120_000, ...options, stallMs: budgetMs + 5_000 });
  }

  /** `budgetMs` may shorten the lane's budget for one request (not lengthen it: the stall timer still applies). */
  async run<T>(req: NlpRequest, opts: { signal?: AbortSignal; budgetMs?: number } = {}): Promise<T> {
    const { signal } = opts;
    const budget = new AbortController();
    const timer = setTimeout(() => budget.abort(new NlpTimeout()), opts.budgetMs ?? this.budgetMs);
    try {
      return await this.lane.run<T>(req, { signal: signal ? AbortSignal.any([signal, budget.signal]) : budget.signal });
    } catch (err) {
      if (budget.signal.aborted && !signal?.aborted) throw new NlpTimeout();
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Requests waiting or running. */
  get load(): number {
    return this.lane.load;
  }

  close(): Promise<void> {
    return this.lane.close();
  }
}
