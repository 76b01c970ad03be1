import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { copyTree } from '../../server/src/test/copy-tree.ts';
import { SERVER_COMMAND } from './server-command.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

// The seed CLI's input, shared with the server so the two cannot drift.
export type { SeedUser } from '../../server/src/demo/seed-users.ts';
import type { SeedUser } from '../../server/src/demo/seed-users.ts';

export interface RunningServer {
  url: string;
  /** Ids of the seeded users by lower-cased e-mail. */
  userIds: Record<string, string>;
  dataDir: string;
  logs: string[];
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** A limit for a hung start, not a speed: it includes seeding the journey's accounts (one scrypt hash each). */
async function waitForHealth(url: string, child: ChildProcess, logs: string[]): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${logs.join('')}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not become healthy:\n${logs.join('')}`);
}

/**
 * Starts the real server (built SPA + API) on a free port with a temporary data dir.
 * `users` are seeded (verified, complete profiles unless said otherwise; password 'password123') before it starts.
 */
export async function startServer(env: Record<string, string> = {}, users: SeedUser[] = []): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = env.DATA_DIR ?? (await mkdtemp(path.join(tmpdir(), 'sb-e2e-')));
  const url = `http://127.0.0.1:${port}`;
  const logs: string[] = [];
  const fullEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: url,
    WEB_DIST: path.join(root, 'packages/web/dist'),
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    ...env,
  };
  // The embedded database starts as a copy of global-setup.ts's migrated one (initdb takes seconds each time).
  const dbDir = path.join(dataDir, 'db');
  if (!fullEnv.DATABASE_URL && !existsSync(dbDir)) await copyTree(inject('pgliteTemplateDir'), dbDir);
  // With accounts to seed, the seed CLI seeds them and then serves in the same process (--serve): its first line
  // of output is their ids.
  const args = users.length ? [...SERVER_COMMAND.seed, JSON.stringify(users), '--serve'] : SERVER_COMMAND.main;
  const child = spawn(process.execPath, args, { cwd: root, env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const idsLine = users.length ? once(createInterface({ input: child.stdout! }), 'line') : undefined;
  child.stdout!.on('data', (d: Buffer) => logs.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => logs.push(d.toString()));
  await waitForHealth(url, child, logs);
  const userIds = idsLine ? (JSON.parse(((await idsLine) as string[])[0]!) as Record<string, string>) : {};
  return {
    url,
    userIds,
    dataDir,
    logs,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      if (!env.DATA_DIR) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
