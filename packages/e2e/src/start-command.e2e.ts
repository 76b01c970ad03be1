import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort } from './server.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

async function waitFor(url: string, deadline: number): Promise<Response> {
  for (;;) {
    try {
      return await fetch(url);
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

async function groupGone(pgid: number, deadline: number): Promise<void> {
  for (;;) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return;
    }
    if (Date.now() > deadline) {
      process.kill(-pgid, 'SIGKILL');
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('npm start', () => {
  it('serves the SPA and a healthy API on the embedded defaults, with demo log-ins for npm run demo', async () => {
    const port = await freePort();
    const canvasPort = await freePort();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sb-start-'));
    const child = spawn('npm', ['run', 'demo', '--silent'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        DEMO_CANVAS_PORT: String(canvasPort),
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    try {
      const health = await waitFor(`http://127.0.0.1:${port}/api/health`, Date.now() + 120_000);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ database: { kind: 'pglite', ok: true }, storage: { ok: true } });
      const page = await fetch(`http://127.0.0.1:${port}/some/client/route`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root"></div>');
      await expect.poll(() => output, { timeout: 10_000 }).toContain('ada@g.ucla.edu');
      expect(output).toContain(`http://localhost:${port}`);
      const courses = await fetch(`http://127.0.0.1:${canvasPort}/api/v1/courses`, {
        headers: { Authorization: `Bearer ${output.match(/token for "Connect Canvas": (\S+)/)![1]}` },
      });
      expect(courses.status).toBe(200);
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      // npm exits before the server it started has closed PGlite, which still writes its WAL:
      // wait for the whole process group, not only npm, before removing the data folder.
      await groupGone(child.pid!, Date.now() + 30_000);
      await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
    }
  });
});
