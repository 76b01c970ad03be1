import type { Resource } from './model.ts';

/**
 * Fault injection. A rule applies to the requests it matches (all of its given fields must match) and,
 * with `times`, only to that many of them.
 * - expired_token / invalid_token: 401 with WWW-Authenticate, as for a dead token.
 * - forbidden: the user may not see this (403, or 401 without WWW-Authenticate with `status: 401`, the legacy form).
 * - tab_disabled: 404 {"message":"That page has been disabled for this course"}.
 * - not_found: 404 "The specified resource does not exist.".
 * - throttle: 429 (default) or 403 text/plain "Rate Limit Exceeded" with X-Rate-Limit-Remaining: 0.0.
 * - server_error: 500 (or `status`: 502, 503, 504).
 * - latency: answers after `latencyMs` extra.
 * - hang: never answers (until the emulator closes), for client timeouts.
 */
export type FaultKind =
  | 'expired_token'
  | 'invalid_token'
  | 'forbidden'
  | 'not_found'
  | 'tab_disabled'
  | 'throttle'
  | 'server_error'
  | 'latency'
  | 'hang';

export interface FaultRule {
  kind: FaultKind;
  /** Only requests made with this token. */
  token?: string;
  /** Only requests about this course. */
  courseId?: number;
  /** Only this list/resource type (e.g. 'quizzes'). */
  resource?: Resource;
  /** Only paths matching this regular expression (source text). */
  path?: string;
  /** Apply to this many matching requests, then stop (default: every one). */
  times?: number;
  status?: number;
  latencyMs?: number;
}

export interface ActiveFault extends FaultRule {
  id: string;
  hits: number;
}

export interface RequestFacts {
  token: string | null;
  pathname: string;
  courseId: number | null;
  resource: Resource | null;
}

export class FaultTable {
  private rules: ActiveFault[] = [];
  private next = 1;

  add(rule: FaultRule): string {
    const id = `fault-${this.next++}`;
    this.rules.push({ ...rule, id, hits: 0 });
    return id;
  }

  remove(id: string): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((r) => r.id !== id);
    return this.rules.length < before;
  }

  clear(): void {
    this.rules = [];
  }

  list(): ActiveFault[] {
    return this.rules.map((r) => ({ ...r }));
  }

  /**
   * The rules that apply to this request: every latency rule, and the first other rule (the answer), in the
   * order they were added. Each counted rule returned uses up one of its `times`.
   */
  take(facts: RequestFacts): ActiveFault[] {
    const hit: ActiveFault[] = [];
    let answered = false;
    for (const r of this.rules) {
      if (answered && r.kind !== 'latency') continue;
      if (r.token !== undefined && r.token !== facts.token) continue;
      if (r.courseId !== undefined && r.courseId !== facts.courseId) continue;
      if (r.resource !== undefined && r.resource !== facts.resource) continue;
      if (r.path !== undefined && !new RegExp(r.path).test(facts.pathname)) continue;
      if (r.times !== undefined && r.hits >= r.times) continue;
      r.hits++;
      hit.push(r);
      if (r.kind !== 'latency') answered = true;
    }
    return hit;
  }
}
