import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { DEMO_TOKEN, startEmulator, type Emulator } from '@studybuddy/canvas-emulator/server';
import type { ConnectResponse, CourseworkResponse, LmsStatus } from '@studybuddy/shared/lms';
import { MSG } from '@studybuddy/shared/messages';
import type { SessionInfo } from '@studybuddy/shared/session';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';

let emu: Emulator;
let t: TestApp;
/** The LMS feature's clock (tests move it; back to the real time after each). */
let clock = () => new Date();
/** Every response body and header the tests saw: the token must never be in one. */
const seen: string[] = [];

async function call<T>(user: TestUser, method: 'GET' | 'POST', url: string, body?: unknown) {
  const res = await t.app.inject({
    method,
    url,
    headers: { cookie: user.cookie },
    ...(body === undefined ? {} : { payload: body as object }),
  });
  seen.push(res.body, JSON.stringify(res.headers));
  return { status: res.statusCode, body: (res.body ? res.json() : null) as T };
}

const connect = (user: TestUser, token = DEMO_TOKEN) =>
  call<ConnectResponse & { error?: { message: string; code: string } }>(user, 'POST', '/api/lms/connect', {
    access_token: token,
  });
const coursework = (user: TestUser, body: Record<string, unknown> = {}) =>
  call<CourseworkResponse & { error?: { message: string; code: string } }>(user, 'POST', '/api/fetch-coursework', body);

/** Rows of a raw query (PGlite and node-postgres both answer `{ rows }`). */
const rowsOf = async <T = Record<string, unknown>>(query: SQL): Promise<T[]> =>
  ((await t.app.ctx.db.execute(query)) as unknown as { rows: T[] }).rows;

async function dumpDatabase(): Promise<string> {
  const tables = await rowsOf<{ table_name: string }>(
    sql`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`,
  );
  let dump = '';
  for (const { table_name } of tables) {
    dump += `${table_name}: ${JSON.stringify(await rowsOf(sql.raw(`select * from "${table_name}"`)))}\n`;
  }
  return dump;
}

beforeAll(async () => {
  emu = await startEmulator({ throttle: false });
  t = await createTestApp(
    { CANVAS_URL_UCLA: emu.url, RATE_LIMITS: 'false' },
    { lms: { now: () => clock(), client: { backoffMs: 5, maxBackoffMs: 20, timeoutMs: 2_000 } } },
  );
});
afterAll(async () => {
  await t?.close();
  await emu?.close();
});
afterEach(() => {
  emu.clearFaults();
  clock = () => new Date();
});

describe('connect and import', () => {
  it('imports 10 of 12 active courses merged into the profile, keeping the token encrypted and unseen', async () => {
    const user = await createUser(t.app, {
      courses: ['Underwater Basket Weaving', 'econ 1 - principles of economics'],
    });
    const before = await call<LmsStatus>(user, 'GET', '/api/lms/status');
    expect(before.body).toMatchObject({ connected: false, available: true, connection_id: null });

    const res = await connect(user);
    expect(res.status).toBe(200);
    const active = emu.data.courses
      .filter((c) => c.enrollment === 'active')
      .map((c) => c.name)
      .sort((a, b) => a.localeCompare(b));
    const firstTen = active.slice(0, 10);
    // The profile's own course keeps its place; the same course by name takes Canvas's id; cut to 10.
    expect(res.body.courses).toHaveLength(10);
    expect(res.body.courses[0]!.name).toBe('Underwater Basket Weaving');
    expect(res.body.courses[1]!.name).toBe('ECON 1 - Principles of Economics');
    expect(res.body.courses[1]!.id).toBe(String(emu.data.courses.find((c) => c.name.startsWith('ECON 1'))!.id));
    expect(res.body.imported.map((c) => c.name)).toEqual(res.body.courses.slice(1).map((c) => c.name));
    expect(res.body.imported.every((c) => firstTen.includes(c.name))).toBe(true);
    expect(res.body.status).toMatchObject({ connected: true, refreshes_remaining: 3 });
    expect(res.body.status.settings_url).toBe(`${emu.url}/profile/settings`);

    const session = await call<SessionInfo>(user, 'GET', '/api/auth/session');
    expect(session.body.profile!.courses).toEqual(res.body.courses);
    const rows = await rowsOf<{ name: string }>(sql`select name from profile_courses where user_id = ${user.id}`);
    expect(rows.map((r) => r.name).sort()).toEqual(res.body.courses.map((c) => c.name).sort());

    const dump = await dumpDatabase();
    expect(dump).toContain(emu.url);
    expect(dump).not.toContain(DEMO_TOKEN);
    expect(dump).not.toContain(Buffer.from(DEMO_TOKEN).toString('base64'));
  });

  it('refuses a short token, a token Canvas rejects, and a university without a Canvas address', async () => {
    const user = await createUser(t.app);
    const short = await connect(user, 'too-short');
    expect(short.status).toBe(400);
    expect(short.body.error!.message).toBe(MSG.lms.tokenTooShort);
    const blank = await connect(user, '   ');
    expect(blank.body.error!.message).toBe(MSG.lms.tokenRequired);
    const wrong = await connect(user, 'x'.repeat(40));
    expect(wrong.status).toBe(400);
    expect(wrong.body.error!.message).toBe(MSG.lms.tokenInvalid);
    expect((await call<LmsStatus>(user, 'GET', '/api/lms/status')).body.connected).toBe(false);

    const noCanvas = await createTestApp(
      { CANVAS_URL_UCLA: 'http://127.0.0.1:1' },
      { lms: { client: { backoffMs: 5, maxBackoffMs: 10 } } },
    );
    try {
      const u = await createUser(noCanvas.app);
      // The address is unreachable, but resolution works; the unavailable case is unit-tested in canvas-url.test.ts.
      const res = await noCanvas.app.inject({
        method: 'POST',
        url: '/api/lms/connect',
        headers: { cookie: u.cookie },
        payload: { access_token: DEMO_TOKEN },
      });
      expect(res.statusCode).toBe(502);
      expect(res.json().error).toMatchObject({ code: 'canvas_unreachable', message: MSG.courses.loadCoursesFailed });
    } finally {
      await noCanvas.close();
    }
  });

  it.each([
    ['server_error', 502, 'canvas_server_error'],
    ['throttle', 429, 'canvas_throttled'],
    ['forbidden', 403, 'canvas_forbidden'],
  ] as const)(
    'says the courses could not be loaded when Canvas fails the course list (%s), connecting or listing',
    async (kind, status, code) => {
      const user = await createUser(t.app);
      emu.addFault({ kind, resource: 'courses' });
      const res = await connect(user);
      expect(res.status).toBe(status);
      expect(res.body.error).toMatchObject({ code, message: MSG.courses.loadCoursesFailed });
      // Nothing was stored: still not connected.
      expect((await call<LmsStatus>(user, 'GET', '/api/lms/status')).body.connected).toBe(false);
      const listed = await call<{ error: { code: string; message: string } }>(
        user,
        'POST',
        '/api/fetch-canvas-courses',
        { access_token: DEMO_TOKEN },
      );
      expect(listed.status).toBe(status);
      expect(listed.body.error).toMatchObject({ code, message: MSG.courses.loadCoursesFailed });
      emu.clearFaults();
      expect((await connect(user)).status).toBe(200);
    },
  );

  it('a dead token on the course list stays the expired-token answer', async () => {
    const user = await createUser(t.app);
    expect((await connect(user)).status).toBe(200);
    emu.addFault({ kind: 'expired_token', resource: 'courses' });
    const listed = await call<{ error: { code: string } }>(user, 'POST', '/api/fetch-canvas-courses', {});
    expect(listed.status).toBe(401);
    expect(listed.body.error.code).toBe('canvas_token_expired');
  });

  it('needs a signed-in user', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/fetch-coursework', payload: {} });
    expect(res.statusCode).toBe(401);
  });
});

describe('coursework and the caches', () => {
  it('loads from Canvas, then from the server cache for 24 hours, then from Canvas again', async () => {
    const user = await createUser(t.app);
    const notConnected = await coursework(user);
    expect(notConnected.status).toBe(400);
    expect(notConnected.body.error!.message).toBe(MSG.lms.notConnected);
    await connect(user);

    emu.resetStats();
    const first = await coursework(user);
    expect(first.status).toBe(200);
    expect(first.body.source).toBe('canvas');
    expect(first.body.courses).toHaveLength(10);
    expect(first.body.coursework.length).toBeGreaterThan(50);
    const requests = emu.requests.length;
    expect(requests).toBeGreaterThan(10);

    const second = await coursework(user);
    expect(second.body.source).toBe('cache');
    expect(second.body.coursework).toEqual(first.body.coursework);
    expect(emu.requests.length).toBe(requests);

    const later = new Date(Date.parse(first.body.fetched_at) + 24 * 60 * 60 * 1000 + 1000);
    clock = () => later;
    const third = await coursework(user);
    expect(third.body.source).toBe('canvas');
    expect(third.body.refreshes_remaining).toBe(3);
  });

  it('allows 3 forced refreshes a day, refuses the 4th, and resets after local midnight', async () => {
    const user = await createUser(t.app);
    await connect(user);
    const tz = 'America/Los_Angeles';
    let now = new Date('2026-03-11T06:00:00Z'); // 23:00 on 10 March in Los Angeles (PDT, UTC-7)
    clock = () => now;
    await coursework(user, { tz });
    for (const left of [2, 1, 0]) {
      const r = await coursework(user, { force: true, tz });
      expect(r.status).toBe(200);
      expect(r.body.source).toBe('canvas');
      expect(r.body.refreshes_remaining).toBe(left);
    }
    emu.resetStats();
    const fourth = await coursework(user, { force: true, tz });
    expect(fourth.status).toBe(429);
    expect(fourth.body.error).toMatchObject({ code: 'refresh_limit', message: MSG.coursework.limitReached });
    expect(emu.requests).toHaveLength(0);
    expect((await call<LmsStatus>(user, 'GET', `/api/lms/status?tz=${tz}`)).body.refreshes_remaining).toBe(0);
    // Still 10 March in Los Angeles, though already 11 March in UTC.
    now = new Date('2026-03-11T06:59:00Z');
    expect((await coursework(user, { force: true, tz })).status).toBe(429);
    // Local midnight has passed.
    now = new Date('2026-03-11T07:00:30Z');
    expect((await call<LmsStatus>(user, 'GET', `/api/lms/status?tz=${tz}`)).body.refreshes_remaining).toBe(3);
    const next = await coursework(user, { force: true, tz });
    expect(next.status).toBe(200);
    expect(next.body.refreshes_remaining).toBe(2);
  });

  it('gives a refresh back when Canvas fails, and says so when nothing can be loaded', async () => {
    const user = await createUser(t.app);
    await connect(user);
    emu.addFault({ kind: 'server_error', status: 500 });
    const failed = await coursework(user, { force: true });
    expect(failed.status).toBe(502);
    expect(failed.body.error!.message).toBe(MSG.coursework.canvas[500]);
    expect((await call<LmsStatus>(user, 'GET', '/api/lms/status')).body.refreshes_remaining).toBe(3);
    emu.clearFaults();
    emu.addFault({ kind: 'server_error', status: 503 });
    expect((await coursework(user)).body.error!.message).toBe(MSG.coursework.canvas[503]);
    emu.clearFaults();
    for (let i = 0; i < 3; i++) await coursework(user, { force: true });
    // All three refreshes are used; connecting again drops the cache, so nothing at all can be shown.
    await connect(user);
    const none = await coursework(user, { force: true });
    expect(none.body.error!.message).toBe(MSG.coursework.limitReachedNoLoad);
  });

  it('answers 401 with a token-expired text when Canvas stops accepting the token', async () => {
    const user = await createUser(t.app);
    emu.addToken('expiring-token-0123456789abcdef');
    await connect(user, 'expiring-token-0123456789abcdef');
    expect((await coursework(user)).status).toBe(200);
    emu.expireToken('expiring-token-0123456789abcdef');
    const res = await coursework(user, { force: true });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ code: 'canvas_token_expired', message: MSG.coursework.tokenExpired });
    expect(res.body.error!.message).toContain('token has expired');
  });

  it('lists a course whose quizzes Canvas forbids under skipped courses', async () => {
    const user = await createUser(t.app);
    await connect(user);
    emu.addFault({ kind: 'forbidden', courseId: 1101, resource: 'quizzes' });
    const res = await coursework(user, { force: true });
    expect(res.body.skipped_courses).toEqual([{ course_id: '1101', skipped_types: ['quiz'] }]);
    // Practice quizzes exist only under /quizzes; graded ones are still known through /assignments.
    const practice = emu.data.quizzes.find((q) => q.course_id === 1101 && q.quiz_type === 'practice_quiz')!;
    const graded = emu.data.quizzes.find((q) => q.course_id === 1101 && q.quiz_type === 'assignment')!;
    const ids = res.body.coursework.map((i) => i.id);
    expect(ids).not.toContain(`quiz_${practice.id}`);
    expect(ids).toContain(`quiz_${graded.id}`);
  });

  it('serves §7 call 1 and takes canvas_url and access_token in the body only for the own Canvas', async () => {
    const user = await createUser(t.app);
    const courses = await call<{ courses: { id: string; name: string }[] }>(user, 'POST', '/api/fetch-canvas-courses', {
      canvas_url: emu.url,
      access_token: DEMO_TOKEN,
    });
    expect(courses.status).toBe(200);
    expect(courses.body.courses).toHaveLength(12);
    const elsewhere = await call<{ error: { message: string } }>(user, 'POST', '/api/fetch-canvas-courses', {
      canvas_url: 'http://169.254.169.254',
      access_token: DEMO_TOKEN,
    });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error.message).toBe(MSG.lms.urlMismatch);
    const direct = await coursework(user, { access_token: DEMO_TOKEN, courses: [{ id: '1100', name: 'CS' }] });
    expect(direct.status).toBe(200);
    expect(direct.body.courses).toEqual([{ id: '1100', name: 'CS' }]);
    expect(direct.body.coursework.every((i) => i.course_id === '1100')).toBe(true);
    expect(direct.body.refreshes_remaining).toBe(2);
  });
});

describe('disconnect', () => {
  it('clears the address, the token and the server cache; the imported courses stay', async () => {
    const user = await createUser(t.app);
    const connected = await connect(user);
    await coursework(user);
    const res = await t.app.inject({ method: 'POST', url: '/api/lms/disconnect', headers: { cookie: user.cookie } });
    expect(res.statusCode).toBe(204);
    expect(await rowsOf(sql`select 1 from lms_connections where user_id = ${user.id}`)).toHaveLength(0);
    const [row] = await rowsOf<{ courses: unknown }>(sql`select courses from profiles where user_id = ${user.id}`);
    expect(row!.courses).toEqual(connected.body.courses);
    expect(await rowsOf(sql`select 1 from coursework_cache where user_id = ${user.id}`)).toHaveLength(0);
    expect((await call<LmsStatus>(user, 'GET', '/api/lms/status')).body).toMatchObject({
      connected: false,
      connection_id: null,
    });
    expect((await coursework(user)).body.error!.message).toBe(MSG.lms.notConnected);
  });

  it('counts as connected only when both the address and the token are non-blank', async () => {
    const user = await createUser(t.app);
    await connect(user);
    await t.app.ctx.db.execute(sql`update lms_connections set canvas_url = '   ' where user_id = ${user.id}`);
    expect((await call<LmsStatus>(user, 'GET', '/api/lms/status')).body.connected).toBe(false);
    expect((await coursework(user)).body.error!.message).toBe(MSG.lms.notConnected);
    await connect(user);
    await t.app.ctx.db.execute(sql`update lms_connections set canvas_access_token = '' where user_id = ${user.id}`);
    expect((await call<LmsStatus>(user, 'GET', '/api/lms/status')).body.connected).toBe(false);
  });

  it('no response ever carried the token', () => {
    expect(seen.length).toBeGreaterThan(20);
    expect(seen.some((s) => s.includes(DEMO_TOKEN))).toBe(false);
    expect(seen.some((s) => s.includes('expiring-token-0123456789abcdef'))).toBe(false);
  });
});
