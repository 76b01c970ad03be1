// postgres-leg: health.service.ts reports the database's kind
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { APP_VERSION } from '@studybuddy/shared/version';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

function captureLog() {
  const lines: string[] = [];
  return {
    stream: { write: (line: string) => void lines.push(line) },
    /** Messages of the errors logged by the health check. */
    errors: () =>
      lines
        .map((l) => JSON.parse(l) as { msg: string; err?: { message: string } })
        .filter((l) => l.msg.startsWith('health check:'))
        .map((l) => l.err?.message ?? ''),
  };
}

describe('/api/health', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('says up for each part when all is well, and the release it runs', async () => {
    t = await createTestApp();
    const res = await t.app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(APP_VERSION).toBe('1.0.0');
    expect(res.json()).toEqual({
      status: 'ok',
      version: APP_VERSION,
      database: { kind: t.app.ctx.database.kind, status: 'up', ok: true },
      storage: { driver: 'fs', status: 'up', ok: true },
    });
  });

  it('says which part is down with a 503, logs the reason and never shows it', async () => {
    const log = captureLog();
    t = await createTestApp({ LOG_LEVEL: 'error' }, { logStream: log.stream });
    // Storage: the files folder becomes a plain file, so the driver cannot write there.
    const files = path.join(t.config.dataDir, 'files');
    await rm(files, { recursive: true, force: true });
    await writeFile(files, 'not a folder');

    const storageDown = await t.app.inject({ url: '/api/health' });
    expect(storageDown.statusCode).toBe(503);
    expect(storageDown.json()).toMatchObject({
      status: 'degraded',
      database: { status: 'up' },
      storage: { driver: 'fs', status: 'down', ok: false },
    });

    // Database: really closed (the app's own close must then not close it twice).
    const database = t.app.ctx.database;
    await database.close();
    database.close = async () => {};
    const bothDown = await t.app.inject({ url: '/api/health' });
    expect(bothDown.statusCode).toBe(503);
    expect(bothDown.json()).toEqual({
      status: 'degraded',
      version: APP_VERSION,
      database: { kind: database.kind, status: 'down', ok: false },
      storage: { driver: 'fs', status: 'down', ok: false },
    });

    const reasons = log.errors();
    expect(reasons.length).toBe(3);
    for (const body of [storageDown.body, bothDown.body]) {
      expect(body).not.toContain(t.config.dataDir);
      for (const reason of reasons) {
        expect(reason.length).toBeGreaterThan(0);
        expect(body).not.toContain(reason);
      }
    }
  });
});
