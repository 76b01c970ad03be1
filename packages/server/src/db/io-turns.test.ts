import { connect } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { listen } from '../platform/listen.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';

let t: TestApp | undefined;
afterAll(async () => {
  await t?.close();
});

// Issues 23 and 31: Node accepts one connection per event-loop turn and each PGlite query took a turn of its own, so
// under a stream of queries a burst of queued connections was accepted one per query, and a health probe behind
// 600 of them waited 2 s in the kernel's accept queue while the event loop was never blocked.
it('accepts a burst of queued connections in far fewer turns than one per query (PGlite)', async (test) => {
  t = await createTestApp();
  const { database } = t.app.ctx;
  // PostgreSQL's pool answers over sockets of its own and takes no turns.
  if (database.kind !== 'pglite') test.skip();
  const port = Number(new URL(await listen(t.app, { port: 0, host: '127.0.0.1' })).port);
  let accepted = 0;
  t.app.server.on('connection', () => accepted++);

  const burst = 300;
  const clients = Array.from({ length: burst }, () => connect(port, '127.0.0.1').on('error', () => undefined));
  let queries = 0;
  while (accepted < burst && queries < burst) {
    // An app query (the health probe's ping skips the queue and its turns).
    await database.db.execute(sql`select 1`);
    queries++;
  }
  for (const client of clients) client.destroy();

  expect(accepted).toBe(burst);
  // Before: one connection per query, so the burst was still not all accepted after 300 queries.
  expect(queries).toBeLessThan(burst / 5);
});
