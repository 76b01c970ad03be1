import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser } from '../../test/users.ts';
import { createJobQueue } from '../jobs/job-queue.ts';
import { WsTestClient } from '../realtime/ws-test-client.ts';
import { parsePrometheusText, sampleValue, type Sample } from './prometheus-text.ts';

const TOKEN = 'metrics-test-token-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };
const HISTOGRAM = 'studybuddy_http_request_duration_seconds';

async function scrape(t: TestApp): Promise<Sample[]> {
  const res = await t.app.inject({ url: '/metrics', headers: auth });
  expect(res.statusCode).toBe(200);
  return parsePrometheusText(res.body);
}

describe('/metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN });
  });
  afterAll(() => t.close());

  it('answers Prometheus text format to the bearer token only', async () => {
    const res = await t.app.inject({ url: '/metrics', headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).toMatch(/^# HELP studybuddy_http_request_duration_seconds /m);
    expect(res.body).toMatch(/^# TYPE studybuddy_http_request_duration_seconds histogram$/m);
    const samples = parsePrometheusText(res.body);
    // Process metrics: event-loop delay (monitorEventLoopDelay) and memory.
    expect(sampleValue(samples, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(sampleValue(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sampleValue(samples, 'studybuddy_ready')).toBe(1);

    for (const headers of [{}, { authorization: 'Bearer wrong-token-wrong-token' }, { authorization: TOKEN }]) {
      const refused = await t.app.inject({ url: '/metrics', headers });
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['www-authenticate']).toBe('Bearer');
      expect(refused.json()).toMatchObject({ error: { code: 'unauthenticated' } });
      expect(refused.body).not.toContain('studybuddy_');
    }
  });

  it("moves a route's latency histogram, labelled by the route's pattern, never the URL", async () => {
    const labels = { method: 'GET', route: '/api/documents/:id', status_class: '4xx' };
    const before = sampleValue(await scrape(t), `${HISTOGRAM}_count`, labels) ?? 0;
    for (const id of ['doc-4f1c9a', 'doc-secret-77']) {
      expect((await t.app.inject({ url: `/api/documents/${id}` })).statusCode).toBe(401);
    }
    const unknown = await t.app.inject({ url: '/api/no-such-route/token-abc123' });
    expect(unknown.statusCode).toBe(404);
    await t.app.inject({ url: '/api/health/live' });

    const res = await t.app.inject({ url: '/metrics', headers: auth });
    const samples = parsePrometheusText(res.body);
    expect(sampleValue(samples, `${HISTOGRAM}_count`, labels)).toBe(before + 2);
    expect(sampleValue(samples, `${HISTOGRAM}_bucket`, { ...labels, le: '+Inf' })).toBe(before + 2);
    expect(sampleValue(samples, `${HISTOGRAM}_sum`, labels)).toBeGreaterThan(0);
    expect(
      sampleValue(samples, `${HISTOGRAM}_count`, { method: 'GET', route: 'unmatched', status_class: '4xx' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sampleValue(samples, `${HISTOGRAM}_count`, { method: 'GET', route: '/api/health/live', status_class: '2xx' }),
    ).toBeGreaterThanOrEqual(1);
    for (const raw of ['doc-4f1c9a', 'doc-secret-77', 'token-abc123', 'no-such-route'])
      expect(res.body).not.toContain(raw);
  });

  it('counts open WebSocket connections and their frames', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const ada = await createUser(t.app);
    const connections = () => scrape(t).then((s) => sampleValue(s, 'studybuddy_websocket_connections'));
    expect(await connections()).toBe(0);
    const sentBefore = sampleValue(await scrape(t), 'studybuddy_websocket_frames_sent_total')!;

    const tab = await WsTestClient.connect(base, ada.cookie);
    await tab.waitFor((f) => f.type === 'hello');
    tab.send({ op: 'pong' });
    const samples = await scrape(t);
    expect(sampleValue(samples, 'studybuddy_websocket_connections')).toBe(1);
    expect(sampleValue(samples, 'studybuddy_websocket_frames_sent_total')).toBeGreaterThan(sentBefore);
    await expect
      .poll(async () => sampleValue(await scrape(t), 'studybuddy_websocket_frames_received_total'))
      .toBeGreaterThanOrEqual(1);

    tab.ws.close();
    await expect.poll(connections).toBe(0);
  });

  it('reports job queue depth and the oldest waiting job per kind', async () => {
    // The jobs table is read at most every few seconds: a fresh app reads it on its first scrape.
    const fresh = await createTestApp({ METRICS_TOKEN: TOKEN });
    try {
      const q = createJobQueue(fresh.app.ctx.database, fresh.app.ctx.log);
      // Nobody runs this kind, so the jobs stay queued: one has waited a minute, one is due later.
      await q.enqueue('test.waiting', { n: 1 }, { runAt: new Date(Date.now() - 60_000) });
      await q.enqueue('test.waiting', { n: 2 });
      await q.enqueue('test.waiting', { n: 3 }, { runAt: new Date(Date.now() + 3_600_000) });
      const samples = await scrape(fresh);
      expect(sampleValue(samples, 'studybuddy_jobs_queued', { kind: 'test.waiting' })).toBe(3);
      expect(sampleValue(samples, 'studybuddy_jobs_running', { kind: 'test.waiting' })).toBe(0);
      const age = sampleValue(samples, 'studybuddy_jobs_oldest_queued_age_seconds', { kind: 'test.waiting' })!;
      expect(age).toBeGreaterThanOrEqual(59);
      expect(age).toBeLessThan(600);
    } finally {
      await fresh.close();
    }
  });

  it('reports the load of the document worker lanes', async () => {
    const samples = await scrape(t);
    for (const lane of ['extract', 'nlp', 'summary']) {
      expect(sampleValue(samples, 'studybuddy_worker_lane_load', { lane })).toBe(0);
    }
    if (t.app.ctx.database.kind === 'postgres') {
      expect(sampleValue(samples, 'studybuddy_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
      expect(sampleValue(samples, 'studybuddy_db_pool_waiting_queries')).toBe(0);
    } else {
      expect(sampleValue(samples, 'studybuddy_db_pool_connections', { state: 'idle' })).toBeUndefined();
    }
  });
});

describe('/metrics exposure settings', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('answers 404 without a token or a metrics port, and never falls through to the web app', async () => {
    t = await createTestApp();
    for (const headers of [{}, auth]) {
      const res = await t.app.inject({ url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: { code: 'not_found' } });
    }
  });

  it('serves /metrics on METRICS_PORT only, bound to METRICS_HOST', async () => {
    t = await createTestApp({ METRICS_PORT: '0', METRICS_HOST: '127.0.0.1' });
    await t.app.ready();
    const url = t.app.ctx.metrics.listenerUrl!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(sampleValue(parsePrometheusText(await res.text()), 'studybuddy_websocket_connections')).toBe(0);
    expect((await fetch(url.replace('/metrics', '/api/health'))).status).toBe(404);
    expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(404);
  });

  it('asks for the token on METRICS_PORT too when both are set', async () => {
    t = await createTestApp({ METRICS_PORT: '0', METRICS_TOKEN: TOKEN });
    await t.app.ready();
    const url = t.app.ctx.metrics.listenerUrl!;
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: auth })).status).toBe(200);
  });

  it('refuses a short token or a bad port at start', () => {
    const load = (env: Record<string, string>) => () => loadConfig({ SECRET_KEY: 'k'.repeat(32), ...env });
    expect(load({ METRICS_TOKEN: 'short' })).toThrow('METRICS_TOKEN must be at least 16 characters');
    expect(load({ METRICS_PORT: '70000' })).toThrow('METRICS_PORT must be an integer');
    expect(load({ METRICS_PORT: '9464' })().metrics).toEqual({ port: 9464, host: '127.0.0.1', token: undefined });
  });
});
