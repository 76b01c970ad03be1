import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN, startEmulator, type Emulator } from '@studybuddy/canvas-emulator/server';
import { CanvasClient, nextLink, numberedPages } from './canvas-client.ts';
import {
  CanvasAuthError,
  type CanvasError,
  CanvasForbiddenError,
  CanvasNotFoundError,
  CanvasServerError,
  CanvasThrottledError,
  CanvasTimeoutError,
} from './canvas-errors.ts';
import { CanvasGate } from './canvas-gate.ts';

let emu: Emulator;
const client = (over: Partial<ConstructorParameters<typeof CanvasClient>[0]> = {}) =>
  new CanvasClient({ baseUrl: emu.url, token: DEMO_TOKEN, backoffMs: 5, maxBackoffMs: 20, ...over });

beforeAll(async () => {
  emu = await startEmulator({ throttle: false });
});
afterAll(() => emu.close());
afterEach(() => {
  emu.clearFaults();
  emu.setLatency(0);
  emu.resetStats();
});

describe('Link header parsing', () => {
  it('finds rel="next" in any position, any header case, with bookmarks', () => {
    const link =
      '<https://h/api/v1/x?page=1&per_page=10>; rel="current",<https://h/api/v1/x?page=bookmark:WzJd&per_page=10>; rel="next",<https://h/api/v1/x?page=1&per_page=10>; rel="first"';
    expect(nextLink(link)).toBe('https://h/api/v1/x?page=bookmark:WzJd&per_page=10');
    expect(nextLink('<https://h/a?page=3>; rel="last"')).toBeNull();
    expect(nextLink(null)).toBeNull();
  });

  it('lists numbered pages next..last, and nothing for bookmarks or differing URLs', () => {
    expect(numberedPages('https://h/x?page=2&per_page=5', 'https://h/x?page=4&per_page=5')).toEqual([
      'https://h/x?page=2&per_page=5',
      'https://h/x?page=3&per_page=5',
      'https://h/x?page=4&per_page=5',
    ]);
    expect(numberedPages('https://h/x?page=bookmark:WzJd', 'https://h/x?page=bookmark:WzNd')).toBeNull();
    expect(numberedPages('https://h/x?page=2&per_page=5', 'https://h/y?page=4&per_page=5')).toBeNull();
    expect(numberedPages('https://h/x?page=2', null)).toBeNull();
    expect(numberedPages('https://h/x?page=3', 'https://h/x?page=2')).toBeNull();
  });
});

describe('CanvasClient against the emulator', () => {
  it('follows rel="next" to the end', async () => {
    const c = client({ perPage: 3 });
    const courses = await c.listActiveCourses();
    expect(courses).toHaveLength(12);
    expect(c.requests).toBe(4);
    const files = await c.listFiles(1100);
    expect(files).toHaveLength(4);
    const all = emu.data.assignments.filter((a) => a.course_id === 1100).length;
    const groups = await c.listAssignmentGroups(1100);
    expect(groups.flatMap((g) => g.assignments ?? [])).toHaveLength(all);
  });

  it('requests the numbered pages after the first together, in order', async () => {
    // Long enough that the five requests overlap even on a busy machine (60 ms flaked at load 5+).
    emu.setLatency(400);
    const c = client({ perPage: 2 });
    const courses = await c.listActiveCourses();
    expect(courses).toHaveLength(12);
    expect(c.requests).toBe(6);
    // page 1 alone, then pages 2–6 at once
    expect(emu.maxInFlight(DEMO_TOKEN)).toBe(5);
    const sequential = await client({ perPage: 2, gate: new CanvasGate(1) }).listActiveCourses();
    expect(courses.map((x) => x.id)).toEqual(sequential.map((x) => x.id));
  });

  it('leaves out date-restricted stubs and concluded courses', async () => {
    const names = (await client().listActiveCourses()).map((c) => c.name);
    expect(names.every((n) => typeof n === 'string' && n.length > 0)).toBe(true);
    expect(names.some((n) => n.startsWith('MATH 31A'))).toBe(false);
  });

  it('keeps at most 6 requests of one user in flight, across clients sharing the gate', async () => {
    emu.setLatency(40);
    const gate = new CanvasGate(6);
    const a = client({ gate, perPage: 2 });
    const b = client({ gate, perPage: 2 });
    const ids = emu.data.courses.filter((c) => c.enrollment === 'active').map((c) => c.id);
    await Promise.all([...ids.map((id) => a.listQuizzes(id)), ...ids.map((id) => b.listDiscussionTopics(id))]);
    expect(emu.maxInFlight(DEMO_TOKEN)).toBe(6);
    expect(gate.active).toBe(0);
  });

  it('retries 5xx and throttling (429 and the old 403 text) and then succeeds', async () => {
    emu.addFault({ kind: 'server_error', path: '/quizzes$', times: 2, status: 503 });
    const c = client();
    expect((await c.listQuizzes(1100)).length).toBeGreaterThan(0);
    expect(c.requests).toBe(3);
    emu.addFault({ kind: 'throttle', path: '/discussion_topics$', times: 1 });
    emu.addFault({ kind: 'throttle', path: '/discussion_topics$', times: 1, status: 403 });
    const d = client();
    expect((await d.listDiscussionTopics(1100)).length).toBeGreaterThan(0);
    expect(d.requests).toBe(3);
  });

  it('gives up with typed errors', async () => {
    emu.addFault({ kind: 'server_error', path: '/modules$' });
    await expect(client({ maxRetries: 2 }).listModules(1100)).rejects.toBeInstanceOf(CanvasServerError);
    emu.addFault({ kind: 'throttle', path: '/files$' });
    const throttled = await client({ maxRetries: 2 })
      .listFiles(1100)
      .catch((e: unknown) => e);
    expect(throttled).toBeInstanceOf(CanvasThrottledError);
    expect((throttled as CanvasError).status).toBe(429);
  });

  it('maps 401, 403, the legacy 401 and 404 to typed errors', async () => {
    emu.addToken('soon-expired-token-0123456789');
    emu.expireToken('soon-expired-token-0123456789');
    const expired = await client({ token: 'soon-expired-token-0123456789' })
      .listActiveCourses()
      .catch((e: unknown) => e);
    expect(expired).toBeInstanceOf(CanvasAuthError);
    expect((expired as Error).message).toBe('Expired access token.');
    await expect(client({ token: 'not-a-token-at-all-000000' }).listActiveCourses()).rejects.toBeInstanceOf(
      CanvasAuthError,
    );

    emu.addFault({ kind: 'forbidden', courseId: 1101, resource: 'quizzes' });
    const forbidden = await client()
      .listQuizzes(1101)
      .catch((e: unknown) => e);
    expect(forbidden).toBeInstanceOf(CanvasForbiddenError);
    expect((forbidden as CanvasError).status).toBe(403);
    emu.addFault({ kind: 'forbidden', courseId: 1102, resource: 'quizzes', status: 401 });
    await expect(client().listQuizzes(1102)).rejects.toBeInstanceOf(CanvasForbiddenError);

    emu.addFault({ kind: 'tab_disabled', courseId: 1103, resource: 'quizzes' });
    const hidden = await client()
      .listQuizzes(1103)
      .catch((e: unknown) => e);
    expect(hidden).toBeInstanceOf(CanvasNotFoundError);
    expect((hidden as CanvasNotFoundError).tabDisabled).toBe(true);
    await expect(client().listQuizzes(999999)).rejects.toBeInstanceOf(CanvasNotFoundError);
  });

  it('times out a request that never answers', async () => {
    emu.addFault({ kind: 'hang', path: '/pages$' });
    const started = Date.now();
    await expect(client({ timeoutMs: 150, maxRetries: 1 }).getAll('/api/v1/courses/1100/pages')).rejects.toBeInstanceOf(
      CanvasTimeoutError,
    );
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('never follows a pagination link to another host', async () => {
    const fake: typeof fetch = async () =>
      new Response('[]', { headers: { Link: '<https://evil.example/api/v1/courses?page=2>; rel="next"' } });
    await expect(client({ fetch: fake }).getAll('/api/v1/courses')).rejects.toThrow(/another host/);
  });

  it('slows down when X-Rate-Limit-Remaining runs low', async () => {
    let calls = 0;
    const fake: typeof fetch = async () => {
      calls++;
      return new Response('[]', { headers: { 'X-Rate-Limit-Remaining': calls === 1 ? '0.5' : '500.0' } });
    };
    const c = client({ fetch: fake, backoffMs: 300, lowRemaining: 100 });
    await c.getAll('/api/v1/courses');
    const t0 = Date.now();
    await c.getAll('/api/v1/courses');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
  });

  it('downloads a file through its verifier URL without the token', async () => {
    const c = client();
    const [pdf] = (await c.listFiles(1100)).filter((f) => f['content-type'] === 'application/pdf');
    const { bytes, contentType } = await c.download(pdf!.url!);
    expect(contentType).toBe('application/pdf');
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const download = emu.requests.find((r) => r.path.startsWith('/files/'));
    expect(download?.token).toBeNull();
  });
});
