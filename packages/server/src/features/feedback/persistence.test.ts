import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { feedback } from '../../db/schema.ts';
import { copyMigratedDatabase } from '../../test/test-app.ts';

// The embedded database only: the PostgreSQL leg has no data dir to restart on.
describe.skipIf(!!process.env.TEST_DATABASE_URL)('embedded database', () => {
  it('keeps a feedback record across a restart on the same data dir', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sb-restart-'));
    try {
      // The run's migrated database (initdb and every migration take tens of seconds on a busy machine).
      await copyMigratedDatabase(dataDir);
      const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
      const first = await buildApp(config, { logger: false });
      const res = await first.inject({
        method: 'POST',
        url: '/api/feedback',
        payload: { feedback: 'Keep me', rating: 5 },
      });
      expect(res.statusCode).toBe(201);
      await first.close();

      const second = await buildApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), { logger: false });
      const rows = await second.ctx.db.select().from(feedback);
      await second.close();
      expect(rows).toEqual([expect.objectContaining({ id: res.json().id, feedback: 'Keep me', rating: 5 })]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
