import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { jobs } from '../db/schema.ts';
import { formData, waitFor } from '../features/documents/test/helpers.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { createUser } from '../test/users.ts';
import { JOB_REQUEST_ID } from './jobs/job-queue.ts';
import { WsTestClient } from './realtime/ws-test-client.ts';
import { withRequestId } from './request-context.ts';

interface LogLine {
  msg: string;
  reqId?: string;
  [key: string]: unknown;
}

function captureLog() {
  const raw: string[] = [];
  return {
    stream: { write: (line: string) => void raw.push(line) },
    raw,
    lines: () => raw.map((l) => JSON.parse(l) as LogLine),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request ids', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('gives each request its own id, answers it in X-Request-Id and logs it; ignores a client-sent id', async () => {
    const log = captureLog();
    t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream: log.stream });
    const first = await t.app.inject({ url: '/api/health/live', headers: { 'x-request-id': 'forged-by-client' } });
    const second = await t.app.inject({ url: '/api/health/live' });
    const ids = [first, second].map((r) => r.headers['x-request-id'] as string);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(ids[0]).not.toBe(ids[1]);
    const completed = log.lines().filter((l) => l.msg === 'request completed');
    expect(completed.map((l) => l.reqId)).toEqual(ids);
    expect(log.raw.join('')).not.toContain('forged-by-client');
  });

  it("honours a trusted proxy's X-Request-Id when it looks like an id", async () => {
    t = await createTestApp({ TRUST_PROXY: '1' });
    const ok = await t.app.inject({ url: '/api/health/live', headers: { 'x-request-id': 'edge-7f3a:01' } });
    expect(ok.headers['x-request-id']).toBe('edge-7f3a:01');
    for (const bad of ['has spaces in it', 'x'.repeat(129), 'line\u2028break']) {
      const res = await t.app.inject({ url: '/api/health/live', headers: { 'x-request-id': bad } });
      expect(res.headers['x-request-id']).toMatch(UUID);
    }
  });

  it('takes X-Request-Id only from a listed proxy when TRUST_PROXY lists addresses', async () => {
    t = await createTestApp({ TRUST_PROXY: '10.0.0.0/24,loopback' });
    const from = (remoteAddress: string) =>
      t!.app.inject({ url: '/api/health/live', remoteAddress, headers: { 'x-request-id': 'edge-42' } });
    expect((await from('10.0.0.7')).headers['x-request-id']).toBe('edge-42');
    expect((await from('::ffff:127.0.0.1')).headers['x-request-id']).toBe('edge-42');
    expect((await from('10.0.1.7')).headers['x-request-id']).toMatch(UUID);
    expect((await from('203.0.113.7')).headers['x-request-id']).toMatch(UUID);
  });

  it('carries the id into the jobs a request enqueues and their log lines', async () => {
    const log = captureLog();
    t = await createTestApp({ LOG_LEVEL: 'info', TRUST_PROXY: '1', RATE_LIMITS: 'false' }, { logStream: log.stream });
    const ada = await createUser(t.app, { courses: ['BIO 101'] });
    const body = formData(
      { data: Buffer.from('Cells are the basic unit of life.'), filename: 'cells.txt' },
      {
        courseId: 'seed-0',
      },
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/upload-document',
      headers: { ...body.headers, cookie: ada.cookie, 'x-request-id': 'upload-req-42' },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['x-request-id']).toBe('upload-req-42');
    const documentId = res.json<{ document: { id: string } }>().document.id;
    const { doc } = await waitFor(t.app, ada, documentId);
    expect(doc.status).toBe('done');

    const [row] = await t.app.ctx.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `document:${documentId}`));
    expect(row?.payload).toMatchObject({ documentId, [JOB_REQUEST_ID]: 'upload-req-42' });
    // The document reads done before its job's own row and log line are written (on PostgreSQL another connection).
    await expect
      .poll(() => log.lines().find((l) => l.msg === 'job finished' && l.job === row!.id), { timeout: 15_000 })
      .toMatchObject({ reqId: 'upload-req-42', kind: row!.kind });
    const lines = log.lines();
    // Logged through ctx.log by the document processor: the id comes from the job's context.
    expect(lines.find((l) => l.msg === 'document processed' && l.documentId === documentId)?.reqId).toBe(
      'upload-req-42',
    );
    // The polling requests that followed have ids of their own.
    expect(lines.filter((l) => l.reqId === 'upload-req-42' && l.msg === 'request completed')).toHaveLength(1);
  });

  it('logs socket events with the id of the upgrade request', async () => {
    const log = captureLog();
    t = await createTestApp({ LOG_LEVEL: 'debug', TRUST_PROXY: '1' }, { logStream: log.stream });
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const ada = await createUser(t.app);
    const tab = await WsTestClient.connect(base, ada.cookie, { 'x-request-id': 'socket-req-9' });
    await tab.waitFor((f) => f.type === 'hello');
    tab.ws.close();
    await expect.poll(() => log.lines().find((l) => l.msg === 'socket closed')?.reqId).toBe('socket-req-9');
    expect(log.lines().find((l) => l.msg === 'socket opened')?.reqId).toBe('socket-req-9');
  });

  it('adds the current id to lines logged through the app logger, once', async () => {
    const log = captureLog();
    t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream: log.stream });
    withRequestId('job-ctx-1', () => t!.app.ctx.log.info('from a job'));
    t.app.ctx.log.info('outside');
    withRequestId('outer', () => t!.app.log.child({ reqId: 'own' }).info('bound'));
    const lines = log.lines();
    expect(lines.find((l) => l.msg === 'from a job')?.reqId).toBe('job-ctx-1');
    expect(lines.find((l) => l.msg === 'outside')).not.toHaveProperty('reqId');
    const bound = log.raw.find((l) => l.includes('"bound"'))!;
    expect(bound.match(/"reqId"/g)).toHaveLength(1);
    expect(JSON.parse(bound)).toMatchObject({ reqId: 'own' });
  });
});
