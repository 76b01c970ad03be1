import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { listen } from './listen.ts';

let t: TestApp | undefined;
afterAll(async () => {
  await t?.close();
});

// Issue 31 case 4: a burst of connections larger than Node's default backlog (511) made the kernel drop new ones,
// health probes' included, while the server was busy. `ss` shows a listening socket's backlog as its Send-Q.
it.skipIf(process.platform !== 'linux')(
  'listens with a backlog of 4096 connections (the kernel caps it at somaxconn)',
  async () => {
    t = await createTestApp();
    const port = new URL(await listen(t.app, { port: 0, host: '127.0.0.1' })).port;
    const line = execFileSync('ss', ['-ltnH', `sport = :${port}`], { encoding: 'utf8' }).trim();
    const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
    // Before: 511 (Node's default).
    expect(Number(line.split(/\s+/)[2]), line).toBe(Math.min(4096, somaxconn));
  },
);
