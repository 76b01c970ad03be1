import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN, startEmulator, type Emulator } from './server.ts';

type Obj = Record<string, unknown>;

describe('canvas emulator', () => {
  let emu: Emulator;
  const get = (path: string, token: string | null = DEMO_TOKEN, headers: Record<string, string> = {}) =>
    fetch(`${emu.url}${path}`, {
      headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
      redirect: 'manual',
    });
  const json = async (path: string) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    return (await res.json()) as Obj[];
  };

  beforeAll(async () => {
    emu = await startEmulator();
  });
  afterAll(() => emu.close());

  it('lists 12 active courses by name, and the date-restricted stub only in the default list', async () => {
    const active = await json('/api/v1/courses?enrollment_state=active&per_page=100');
    expect(active).toHaveLength(12);
    const names = active.map((c) => String(c.name));
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    expect(active.every((c) => c.workflow_state === 'available')).toBe(true);
    const all = await json('/api/v1/courses?per_page=100');
    const stub = all.find((c) => c.access_restricted_by_date === true);
    expect(stub && Object.keys(stub).sort()).toEqual(['access_restricted_by_date', 'id']);
    const completed = await json('/api/v1/courses?enrollment_state=completed');
    expect(completed.map((c) => c.workflow_state)).toEqual(['completed']);
  });

  it('paginates with per_page and a Canvas Link header, clamps per_page to 100 and answers [] past the end', async () => {
    const res = await get('/api/v1/courses?enrollment_state=active&per_page=5');
    const link = res.headers.get('link')!;
    expect(link).toBe(
      [
        `<${emu.url}/api/v1/courses?enrollment_state=active&page=1&per_page=5>; rel="current"`,
        `<${emu.url}/api/v1/courses?enrollment_state=active&page=2&per_page=5>; rel="next"`,
        `<${emu.url}/api/v1/courses?enrollment_state=active&page=1&per_page=5>; rel="first"`,
        `<${emu.url}/api/v1/courses?enrollment_state=active&page=3&per_page=5>; rel="last"`,
      ].join(','),
    );
    const ids: unknown[] = [];
    let next: string | undefined = `${emu.url}/api/v1/courses?enrollment_state=active&per_page=5`;
    let pages = 0;
    while (next) {
      const r = await fetch(next, { headers: { Authorization: `Bearer ${DEMO_TOKEN}` } });
      ids.push(...((await r.json()) as Obj[]).map((c) => c.id));
      next = /<([^>]+)>; rel="next"/.exec(r.headers.get('link') ?? '')?.[1];
      pages++;
    }
    expect(pages).toBe(3);
    expect(new Set(ids).size).toBe(12);
    const clamped = await json('/api/v1/courses/1100/modules?per_page=500');
    expect(clamped.length).toBeLessThanOrEqual(100);
    expect(await json('/api/v1/courses?enrollment_state=active&page=9&per_page=5')).toEqual([]);
    const dflt = await json('/api/v1/courses?enrollment_state=active');
    expect(dflt).toHaveLength(10);
  });

  it('pages files with opaque bookmarks and no rel="last"', async () => {
    const res = await get('/api/v1/courses/1100/files?per_page=2');
    const link = res.headers.get('link')!;
    expect(link).not.toContain('rel="last"');
    const next = /<([^>]+)>; rel="next"/.exec(link)![1]!;
    expect(next).toMatch(/page=bookmark:/);
    const second = (await (await get(next.replace(emu.url, ''))).json()) as Obj[];
    expect(second).toHaveLength(2);
    expect((await get('/api/v1/courses/1100/files?page=bookmark:garbage')).status).toBe(404);
  });

  it('checks the bearer token like Canvas does', async () => {
    const none = await get('/api/v1/courses', null);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="canvas-lms"');
    expect(await none.json()).toEqual({
      status: 'unauthenticated',
      errors: [{ message: 'user authorization required' }],
    });
    const bad = await get('/api/v1/courses', 'nope');
    expect(await bad.json()).toEqual({ errors: [{ message: 'Invalid access token.' }] });
    const lower = await fetch(`${emu.url}/api/v1/courses`, { headers: { Authorization: `bearer ${DEMO_TOKEN}` } });
    expect(lower.status).toBe(401);
    const param = await fetch(`${emu.url}/api/v1/courses?access_token=${DEMO_TOKEN}`);
    expect(param.status).toBe(200);
    expect(param.headers.get('link')).not.toContain('access_token');

    emu.addToken('temp-token-0123456789abcdef');
    expect((await get('/api/v1/courses', 'temp-token-0123456789abcdef')).status).toBe(200);
    emu.expireToken('temp-token-0123456789abcdef');
    const expired = await get('/api/v1/courses', 'temp-token-0123456789abcdef');
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('Bearer');
    const body = (await expired.json()) as { errors: Obj[] };
    expect(body.errors[0]!.message).toBe('Expired access token.');
  });

  it('DELETE /login/oauth2/token destroys the token of the request, as Canvas logs an access token out', async () => {
    const token = 'logout-token-0123456789abcdef';
    emu.addToken(token);
    const logout = (t: string | null) =>
      fetch(`${emu.url}/login/oauth2/token`, {
        method: 'DELETE',
        headers: t ? { Authorization: `Bearer ${t}` } : {},
      });
    const res = await logout(token);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    const after = await get('/api/v1/courses', token);
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ errors: [{ message: 'Invalid access token.' }] });
    expect((await logout(token)).status).toBe(401);
    const none = await logout(null);
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual({
      message: "can't delete OAuth access token when not using an OAuth access token",
    });
    expect(emu.requests.some((r) => r.method === 'DELETE' && r.path === '/login/oauth2/token')).toBe(true);
  });

  it('lists graded quizzes and graded discussions in /assignments too, with the caller submission', async () => {
    const assignments = await json('/api/v1/courses/1100/assignments?include[]=submission&per_page=100');
    const quizzes = await json('/api/v1/courses/1100/quizzes?per_page=100');
    const graded = quizzes.find((q) => q.quiz_type === 'assignment')!;
    const twin = assignments.find((a) => a.quiz_id === graded.id)!;
    expect(twin.submission_types).toEqual(['online_quiz']);
    expect(twin.id).toBe(graded.assignment_id);
    expect(assignments.some((a) => a.is_quiz_lti_assignment === true)).toBe(true);
    expect(assignments.every((a) => typeof (a.submission as Obj).workflow_state === 'string')).toBe(true);
    const topics = await json('/api/v1/courses/1100/discussion_topics');
    expect(topics.every((t) => t.is_announcement === false)).toBe(true);
    const gradedTopic = topics.find((t) => t.assignment_id)!;
    expect((gradedTopic.assignment as Obj).due_at).toBeTruthy();
    expect(topics.some((t) => !t.assignment_id && t.todo_date)).toBe(true);
    const groups = await json('/api/v1/courses/1100/assignment_groups');
    expect(groups.map((g) => g.name)).toEqual(['Homework', 'Projects', 'Quizzes', 'Exams', 'Participation']);
  });

  it('inlines module items with truthy content_details only', async () => {
    const modules = await json('/api/v1/courses/1100/modules?include[]=items&include[]=content_details');
    const items = modules.flatMap((m) => m.items as Obj[]);
    const header = items.find((i) => i.type === 'SubHeader')!;
    expect(header.html_url).toBeUndefined();
    const assignment = items.find((i) => i.type === 'Assignment')!;
    expect((assignment.content_details as Obj).points_possible).toBeGreaterThan(0);
    const page = items.find((i) => i.type === 'Page')!;
    expect(page.content_id).toBeUndefined();
    expect((page.content_details as Obj).due_at).toBeUndefined();
    const without = await json('/api/v1/courses/1100/modules');
    expect(without[0]!.items).toBeUndefined();
  });

  it('serves string ids on request', async () => {
    const res = await get('/api/v1/courses/1100/assignments', DEMO_TOKEN, {
      Accept: 'application/json+canvas-string-ids',
    });
    const [first] = (await res.json()) as Obj[];
    expect(typeof first!.id).toBe('string');
    expect(typeof first!.course_id).toBe('string');
  });

  it('downloads a file through the 302 verifier URL', async () => {
    const [file] = await json('/api/v1/courses/1100/files?content_types[]=application/pdf');
    const res = await get(String(file!.url).replace(emu.url, ''), null);
    expect(res.status).toBe(302);
    const bytes = await fetch(new URL(res.headers.get('location')!, emu.url));
    expect(bytes.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await bytes.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const wrong = await get(`/files/${String(file!.id)}/download?verifier=nope`, null);
    expect(wrong.status).toBe(404);
  });
});
