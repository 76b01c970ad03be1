import { trimTrailing } from '@studybuddy/shared/text-scan';
import {
  CanvasAuthError,
  CanvasError,
  CanvasForbiddenError,
  CanvasNetworkError,
  CanvasNotFoundError,
  CanvasServerError,
  CanvasThrottledError,
  CanvasTimeoutError,
} from './canvas-errors.ts';
import { CanvasGate } from './canvas-gate.ts';
import type {
  CanvasAssignmentGroup,
  CanvasCourse,
  CanvasFile,
  CanvasId,
  CanvasModule,
  CanvasModuleItem,
  CanvasQuiz,
  CanvasTopic,
} from './canvas-types.ts';

export interface CanvasClientOptions {
  baseUrl: string;
  token: string;
  /** Admission shared by all of one user's clients (≤ 6 in flight); a private gate of 6 when omitted. */
  gate?: CanvasGate;
  perPage?: number;
  timeoutMs?: number;
  /** Retries of throttled, 5xx, timed-out and unreachable requests. */
  maxRetries?: number;
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Below this X-Rate-Limit-Remaining, new requests are spaced out. */
  lowRemaining?: number;
  fetch?: typeof fetch;
  random?: () => number;
}

interface Page {
  data: unknown;
  next: string | null;
  last: string | null;
}

const RETRY_STATUS = new Set([500, 502, 503, 504]);

/** The URL with `rel` (e.g. "next") in a Link header (any header case; links separated by commas). */
export function linkFor(link: string | null, rel: 'next' | 'last'): string | null {
  if (!link) return null;
  for (const part of link.split(/,(?=\s*<)/)) {
    // Anchored and split by hand: the header comes from a server, and no pattern here rescans a long run.
    const m = /^<([^>]+)>\s*;(.*)$/.exec(part.trim());
    if (m && relsOf(m[2]!).includes(rel)) return m[1]!;
  }
  return null;
}

/** The relation types of a link's parameters (`rel="prev next"`), lower-case. */
function relsOf(params: string): string[] {
  for (const param of params.split(';')) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'rel') continue;
    const value = param.slice(eq + 1).trim();
    const unquoted = value.startsWith('"') ? value.slice(1, value.endsWith('"') ? -1 : undefined) : value;
    return unquoted.toLowerCase().split(/\s+/);
  }
  return [];
}

export const nextLink = (link: string | null) => linkFor(link, 'next');

/**
 * The URLs of pages `next`..`last` when Canvas numbers its pages (`page=2` … `page=N`, the rest of the URL the
 * same), so they can be requested together; null for opaque bookmarks or when there is no `last` link.
 */
export function numberedPages(next: string | null, last: string | null): string[] | null {
  if (!next || !last) return null;
  const a = new URL(next);
  const b = new URL(last);
  const from = Number(a.searchParams.get('page'));
  const to = Number(b.searchParams.get('page'));
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1 || to < from || to - from > 1000) return null;
  b.searchParams.set('page', String(from));
  if (a.toString() !== b.toString()) return null;
  return Array.from({ length: to - from + 1 }, (_, i) => {
    a.searchParams.set('page', String(from + i));
    return a.toString();
  });
}

function messageOf(body: string): string {
  try {
    const json = JSON.parse(body) as { errors?: { message?: string }[] | string; message?: string };
    if (Array.isArray(json.errors) && json.errors[0]?.message) return json.errors[0].message;
    if (typeof json.errors === 'string') return json.errors;
    if (json.message) return json.message;
  } catch {
    // not JSON
  }
  return body.trim().slice(0, 200);
}

/**
 * A Canvas REST client for one token: Bearer auth, Link pagination to the end, bounded concurrency,
 * retries with jittered exponential back-off for throttling and 5xx, per-request timeouts, typed errors.
 */
export class CanvasClient {
  readonly baseUrl: string;
  private readonly origin: string;
  private readonly gate: CanvasGate;
  private readonly o: Required<Omit<CanvasClientOptions, 'gate' | 'baseUrl' | 'token'>>;
  /** Requests this client sent (including retries). */
  requests = 0;

  constructor(private readonly options: CanvasClientOptions) {
    this.baseUrl = trimTrailing(options.baseUrl, '/');
    this.origin = new URL(this.baseUrl).origin;
    this.gate = options.gate ?? new CanvasGate(6);
    this.o = {
      perPage: options.perPage ?? 100,
      timeoutMs: options.timeoutMs ?? 20_000,
      maxRetries: options.maxRetries ?? 4,
      backoffMs: options.backoffMs ?? 500,
      maxBackoffMs: options.maxBackoffMs ?? 8_000,
      lowRemaining: options.lowRemaining ?? 100,
      fetch: options.fetch ?? fetch,
      random: options.random ?? Math.random,
    };
  }

  private backoff(attempt: number): number {
    const base = Math.min(this.o.maxBackoffMs, this.o.backoffMs * 2 ** attempt);
    return Math.round(base / 2 + (this.o.random() * base) / 2);
  }

  private url(path: string, query: Record<string, string | string[]> = {}): string {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(query)) {
      for (const value of Array.isArray(v) ? v : [v]) url.searchParams.append(k, value);
    }
    if (!url.searchParams.has('per_page')) url.searchParams.set('per_page', String(this.o.perPage));
    return url.toString();
  }

  /** One GET with admission, timeout and retries (`urgent`: a follow-up page, admitted before new lists). */
  private async get(url: string, urgent = false): Promise<Page> {
    if (new URL(url).origin !== this.origin) {
      // Never send the token to another host (a pagination link could point anywhere).
      throw new CanvasError('http', null, 'Canvas pagination pointed to another host');
    }
    for (let attempt = 0; ; attempt++) {
      const release = await this.gate.acquire(urgent || attempt > 0);
      let res: Response;
      let body: string;
      try {
        this.requests++;
        res = await this.o.fetch(url, {
          headers: { Authorization: `Bearer ${this.options.token}`, Accept: 'application/json' },
          signal: AbortSignal.timeout(this.o.timeoutMs),
          redirect: 'error',
        });
        body = await res.text();
      } catch (err) {
        release();
        const timeout = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
        if (attempt < Math.min(this.o.maxRetries, 2)) {
          await new Promise((r) => setTimeout(r, this.backoff(attempt)));
          continue;
        }
        if (timeout) throw new CanvasTimeoutError();
        throw new CanvasNetworkError(
          err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : 'error',
        );
      }
      release();

      const remainingHeader = res.headers.get('x-rate-limit-remaining');
      const remaining = remainingHeader === null ? null : Number(remainingHeader);
      const throttled =
        res.status === 429 ||
        (res.status === 403 && (/rate limit exceeded/i.test(body) || (remaining !== null && remaining <= 0)));
      if (remaining !== null && Number.isFinite(remaining) && remaining < this.o.lowRemaining && !throttled) {
        // Running low: space out everyone's next requests in proportion to how low.
        this.gate.pause(Math.round((this.o.backoffMs * (this.o.lowRemaining - remaining)) / this.o.lowRemaining));
      }
      if (throttled || RETRY_STATUS.has(res.status)) {
        if (attempt < this.o.maxRetries) {
          const wait = this.backoff(attempt);
          if (throttled) this.gate.pause(wait);
          else await new Promise((r) => setTimeout(r, wait));
          continue;
        }
        throw throttled ? new CanvasThrottledError(res.status) : new CanvasServerError(res.status);
      }
      if (res.status === 401) {
        const message = messageOf(body);
        if (res.headers.has('www-authenticate')) throw new CanvasAuthError(message || 'Invalid access token.');
        throw new CanvasForbiddenError(401, message);
      }
      if (res.status === 403) throw new CanvasForbiddenError(403, messageOf(body));
      if (res.status === 404) {
        const message = messageOf(body);
        throw new CanvasNotFoundError(message, /has been disabled/i.test(message));
      }
      if (res.status >= 500) throw new CanvasServerError(res.status);
      if (!res.ok) throw new CanvasError('http', res.status, messageOf(body) || `Canvas answered ${res.status}`);
      let data: unknown;
      try {
        data = JSON.parse(body.replace(/^while\(1\);/, ''));
      } catch {
        throw new CanvasError('http', res.status, 'Canvas answered with something that is not JSON');
      }
      const link = res.headers.get('link');
      return { data, next: linkFor(link, 'next'), last: linkFor(link, 'last') };
    }
  }

  /**
   * Every element of a paginated list. When the first page links numbered pages up to rel="last", those are
   * requested together; otherwise (bookmarks) rel="next" is followed one page at a time. Either way the last page's
   * rel="next" is followed to the end, in case the list grew meanwhile.
   */
  async getAll<T>(path: string, query: Record<string, string | string[]> = {}): Promise<T[]> {
    const out: T[] = [];
    const seen = new Set<string>();
    const take = (page: Page) => {
      if (!Array.isArray(page.data)) throw new CanvasError('http', 200, 'Canvas answered a list request with no list');
      out.push(...(page.data as T[]));
    };
    let url: string | null = this.url(path, query);
    while (url && !seen.has(url)) {
      seen.add(url);
      const page: Page = await this.get(url, seen.size > 1);
      take(page);
      const rest = seen.size === 1 ? numberedPages(page.next, page.last) : null;
      if (!rest) {
        url = page.next;
        continue;
      }
      rest.forEach((u) => seen.add(u));
      const pages = await Promise.all(rest.map((u) => this.get(u, true)));
      pages.forEach(take);
      url = pages.at(-1)!.next;
    }
    return out;
  }

  async getOne<T>(path: string, query: Record<string, string | string[]> = {}): Promise<T> {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(query)) for (const x of [v].flat()) url.searchParams.append(k, x);
    return (await this.get(url.toString())).data as T;
  }

  /** Courses with an active student enrolment, in Canvas's order (by name); date-restricted stubs left out. */
  async listActiveCourses(): Promise<(CanvasCourse & { name: string })[]> {
    const courses = await this.getAll<CanvasCourse>('/api/v1/courses', { enrollment_state: 'active' });
    return courses.filter(
      (c): c is CanvasCourse & { name: string } =>
        !c.access_restricted_by_date &&
        typeof c.name === 'string' &&
        c.name.trim() !== '' &&
        c.workflow_state !== 'completed',
    );
  }

  /**
   * The assignment groups with their assignments (and the caller's submission) inlined: one request per course
   * where listing assignments takes one per page of them.
   */
  listAssignmentGroups(courseId: CanvasId) {
    return this.getAll<CanvasAssignmentGroup>(`/api/v1/courses/${courseId}/assignment_groups`, {
      'include[]': ['assignments', 'submission'],
    });
  }

  listQuizzes(courseId: CanvasId) {
    return this.getAll<CanvasQuiz>(`/api/v1/courses/${courseId}/quizzes`);
  }

  listDiscussionTopics(courseId: CanvasId) {
    return this.getAll<CanvasTopic>(`/api/v1/courses/${courseId}/discussion_topics`);
  }

  /** Modules with their items (fetched separately for modules Canvas leaves `items` out of: over 100 items). */
  async listModules(courseId: CanvasId): Promise<CanvasModule[]> {
    const modules = await this.getAll<CanvasModule>(`/api/v1/courses/${courseId}/modules`, {
      'include[]': ['items', 'content_details'],
    });
    await Promise.all(
      modules
        .filter((m) => !Array.isArray(m.items))
        .map(async (m) => {
          m.items = await this.getAll<CanvasModuleItem>(`/api/v1/courses/${courseId}/modules/${m.id}/items`, {
            'include[]': 'content_details',
          });
        }),
    );
    return modules;
  }

  listFiles(courseId: CanvasId) {
    return this.getAll<CanvasFile>(`/api/v1/courses/${courseId}/files`);
  }

  getFile(fileId: CanvasId) {
    return this.getOne<CanvasFile>(`/api/v1/files/${fileId}`);
  }

  /** A file of this course (404 when the file belongs elsewhere). */
  getCourseFile(courseId: CanvasId, fileId: CanvasId) {
    return this.getOne<CanvasFile>(`/api/v1/courses/${courseId}/files/${fileId}`);
  }

  /**
   * Withdraws the token with Canvas (`DELETE /login/oauth2/token`, Canvas's log-out for an access token): it stops
   * working and leaves the student's list of approved integrations. One try, no retries (the caller goes on either
   * way); throws a typed error when Canvas refuses or cannot be reached.
   */
  async revokeToken(): Promise<void> {
    let res: Response;
    try {
      res = await this.o.fetch(`${this.baseUrl}/login/oauth2/token`, {
        method: 'DELETE',
        headers: { Authorization: `Bearer ${this.options.token}`, Accept: 'application/json' },
        signal: AbortSignal.timeout(Math.min(this.o.timeoutMs, 10_000)),
        redirect: 'error',
      });
    } catch (err) {
      if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
        throw new CanvasTimeoutError();
      }
      throw new CanvasNetworkError(err instanceof Error ? err.message : 'error');
    }
    const body = await res.text();
    if (res.ok) return;
    if (res.status === 401 && res.headers.has('www-authenticate')) throw new CanvasAuthError(messageOf(body));
    throw new CanvasError('http', res.status, messageOf(body) || `Canvas answered ${res.status}`);
  }

  /**
   * The bytes behind a file's download URL. The verifier in the URL is the credential: no Authorization is sent,
   * and redirects to other hosts (Canvas's files domain, storage) are followed.
   */
  async download(url: string, maxBytes = 50 * 1024 * 1024): Promise<{ bytes: Buffer; contentType: string | null }> {
    const release = await this.gate.acquire();
    try {
      const res = await this.o.fetch(url, { signal: AbortSignal.timeout(this.o.timeoutMs * 3), redirect: 'follow' });
      if (res.status === 401 || res.status === 403) throw new CanvasForbiddenError(res.status, 'download refused');
      if (res.status === 404) throw new CanvasNotFoundError('file not found');
      if (!res.ok) throw new CanvasServerError(res.status);
      const declared = Number(res.headers.get('content-length') ?? 0);
      if (declared > maxBytes) throw new CanvasError('http', res.status, 'file too large');
      const bytes = Buffer.from(await res.arrayBuffer());
      if (bytes.length > maxBytes) throw new CanvasError('http', res.status, 'file too large');
      return { bytes, contentType: res.headers.get('content-type') };
    } catch (err) {
      if (err instanceof CanvasError) throw err;
      if (err instanceof Error && err.name === 'TimeoutError') throw new CanvasTimeoutError();
      throw new CanvasNetworkError(err instanceof Error ? err.message : 'error');
    } finally {
      release();
    }
  }
}
