import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_TOKEN, startEmulator, type Emulator } from './server.ts';

describe('fault injection', () => {
  let emu: Emulator;
  const get = (path: string, token = DEMO_TOKEN) =>
    fetch(`${emu.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });

  beforeEach(async () => {
    emu = await startEmulator({ throttle: { hwm: 120, upFrontCost: 50, costPerRequest: 1, outflowPerSec: 10 } });
  });
  afterEach(() => emu.close());

  it('forbids one type for one course: 403 without WWW-Authenticate, or the legacy 401', async () => {
    emu.addFault({ kind: 'forbidden', courseId: 1101, resource: 'quizzes' });
    const res = await get('/api/v1/courses/1101/quizzes');
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBeNull();
    expect(await res.json()).toEqual({
      status: 'unauthorized',
      errors: [{ message: 'user not authorized to perform that action' }],
    });
    expect((await get('/api/v1/courses/1100/quizzes')).status).toBe(200);
    expect((await get('/api/v1/courses/1101/assignments')).status).toBe(200);
    emu.clearFaults();
    emu.addFault({ kind: 'forbidden', courseId: 1101, resource: 'quizzes', status: 401 });
    const legacy = await get('/api/v1/courses/1101/quizzes');
    expect(legacy.status).toBe(401);
    expect(legacy.headers.get('www-authenticate')).toBeNull();
  });

  it('applies token faults only to that token, and counted faults only so many times', async () => {
    emu.addToken('other-token-0123456789abcdef');
    emu.addFault({ kind: 'expired_token', token: 'other-token-0123456789abcdef' });
    expect((await get('/api/v1/courses', 'other-token-0123456789abcdef')).status).toBe(401);
    expect((await get('/api/v1/courses')).status).toBe(200);
    emu.addFault({ kind: 'server_error', path: '/assignments$', times: 2, status: 503 });
    const first = await get('/api/v1/courses/1100/assignments');
    expect(first.status).toBe(503);
    expect(await first.json()).toMatchObject({
      errors: [{ message: 'An error occurred.', error_code: 'service_unavailable' }],
    });
    expect((await get('/api/v1/courses/1100/assignments')).status).toBe(503);
    expect((await get('/api/v1/courses/1100/assignments')).status).toBe(200);
  });

  it('throttles with 429 by default and 403 text on request, with X-Rate-Limit-Remaining 0.0', async () => {
    emu.addFault({ kind: 'throttle', times: 1 });
    const t429 = await get('/api/v1/courses');
    expect(t429.status).toBe(429);
    expect(t429.headers.get('x-rate-limit-remaining')).toBe('0.0');
    expect(await t429.text()).toContain('Rate Limit Exceeded');
    emu.addFault({ kind: 'throttle', times: 1, status: 403 });
    const t403 = await get('/api/v1/courses');
    expect(t403.status).toBe(403);
    expect(t403.headers.get('content-type')).toContain('text/plain');
    expect(await t403.text()).toBe('403 Forbidden (Rate Limit Exceeded)\n');
    const ok = await get('/api/v1/courses');
    expect(ok.status).toBe(200);
    expect(Number(ok.headers.get('x-rate-limit-remaining'))).toBeGreaterThan(0);
    expect(ok.headers.get('x-request-cost')).toBe('1');
  });

  it('the leaky bucket refuses bursts of parallel requests, not sequential ones', async () => {
    emu.setLatency(50);
    for (let i = 0; i < 4; i++) expect((await get('/api/v1/courses')).status).toBe(200);
    const burst = await Promise.all(Array.from({ length: 8 }, () => get('/api/v1/courses')));
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
  });

  it('a disabled tab answers the different 404 shape; latency delays; the control API adds faults', async () => {
    emu.data.courses.find((c) => c.id === 1102)!.disabledTabs.push('quizzes');
    const res = await get('/api/v1/courses/1102/quizzes');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'That page has been disabled for this course' });

    emu.addFault({ kind: 'latency', latencyMs: 300, path: '/modules$', times: 1 });
    const t0 = Date.now();
    await get('/api/v1/courses/1100/modules');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(280);

    const added = await fetch(`${emu.url}/__emulator/faults`, {
      method: 'POST',
      body: JSON.stringify({ kind: 'not_found', courseId: 1103, resource: 'files' }),
    });
    expect(added.status).toBe(201);
    expect((await get('/api/v1/courses/1103/files')).status).toBe(404);
    const bad = await fetch(`${emu.url}/__emulator/faults`, { method: 'POST', body: '{"kind":"nope"}' });
    expect(bad.status).toBe(400);
    await fetch(`${emu.url}/__emulator/tokens/expire`, { method: 'POST', body: JSON.stringify({ token: DEMO_TOKEN }) });
    expect((await get('/api/v1/courses')).status).toBe(401);
  });

  it('records how many requests a token had in flight at once', async () => {
    emu.setLatency(80);
    emu.resetStats();
    await Promise.all(Array.from({ length: 2 }, () => get('/api/v1/courses')));
    expect(emu.maxInFlight(DEMO_TOKEN)).toBe(2);
    expect(emu.requests).toHaveLength(2);
  });
});
