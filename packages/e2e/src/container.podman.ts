// SLOW (minutes: builds the images): `npm run test:container`, not part of `npm test`. Issue 26 point 2: the image
// builds and serves /api/health/ready under podman, and compose.yaml brings up the app with PostgreSQL and the S3
// store; a message (and a chat image) sent before `podman-compose down` is there after `up`.
// Where podman (or podman-compose) is missing, the tests are skipped with a loud line saying so.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatIdFor, type MessagePage } from '@studybuddy/shared/chat';
import { freePort } from './server.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const IMAGE = 'localhost/studybuddy:latest';
const BASE = 'debian:trixie-slim';
/** A real 2×2 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVR4nGMwDl1lHLqKAUIBAB+qBMmC1wmnAAAAAElFTkSuQmCC',
  'base64',
);

const installed = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const PODMAN = installed('podman');
const COMPOSE = PODMAN && installed('podman-compose');
if (!PODMAN) {
  console.log('\n!!!!!!!! SKIPPED: container tests — podman is not installed (apt-get install podman runc) !!!!!!!!\n');
} else if (!COMPOSE) {
  console.log(
    '\n!!!!!!!! SKIPPED: compose test — podman-compose is not installed (apt-get install podman-compose) !!!!!!!!\n',
  );
}

/** Certificates this machine added to Debian's (a TLS-inspecting proxy's), for the builds' npm installs. */
function localCertificates(): string {
  const dir = '/usr/local/share/ca-certificates';
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.crt'))
      .map((f) => readFileSync(path.join(dir, f), 'utf8').trim())
      .join('\n');
  } catch {
    return '';
  }
}

/** podman's environment: the repository's containers.conf (runc, allowed limits) unless one is set, where runc is. */
function podmanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  if (!env.CONTAINERS_CONF && installed('runc')) {
    env.CONTAINERS_CONF = path.join(root, 'scripts/container/containers.conf');
  }
  env.EXTRA_CA_CERTS ??= localCertificates();
  // podman-compose builds keep HEALTHCHECK too (and share the image test's layers).
  env.BUILDAH_FORMAT ??= 'docker';
  return env;
}

interface Ran {
  code: number | null;
  stdout: string;
  /** Standard output and error as they came. */
  output: string;
}

function exec(cmd: string, args: string[], env = podmanEnv()): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, output }));
  });
}

async function must(cmd: string, args: string[], env?: NodeJS.ProcessEnv): Promise<string> {
  const r = await exec(cmd, args, env);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.code}:\n${r.output.slice(-6000)}`);
  return r.stdout.trim();
}

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(0)} s`;

/** Waits for GET /api/health/ready to answer 200; `logs` tells what the containers said when it never does. */
async function waitReady(url: string, timeoutMs: number, logs: () => Promise<string>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(`${url}/api/health/ready`, { signal: AbortSignal.timeout(5000) });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} not ready after ${timeoutMs} ms:\n${await logs()}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Makes the base image locally when no registry can give it (as root; elsewhere the build pulls it). */
async function ensureBase() {
  if ((await exec('podman', ['image', 'exists', BASE])).code === 0) return;
  if (process.getuid?.() !== 0) return;
  const started = Date.now();
  await must('sh', [path.join(root, 'scripts/container/make-base-image.sh')]);
  console.log(`base image ${BASE} made with debootstrap in ${seconds(started)}`);
}

describe.skipIf(!PODMAN)('the container image under podman', () => {
  const name = `sb-container-test-${process.pid}`;
  let url: string;

  beforeAll(async () => {
    await ensureBase();
    const started = Date.now();
    const env = podmanEnv();
    if (process.env.CONTAINER_TEST_BUILT === '1') {
      // Runs the image an earlier `podman build` made (what compose.yaml names) instead of building it again.
      await must('podman', ['image', 'exists', IMAGE]);
      console.log(`CONTAINER_TEST_BUILT=1: testing the existing ${IMAGE}, not building it`);
    } else {
      await must('nice', [
        '-n',
        '10',
        'podman',
        'build',
        '--format',
        'docker',
        '--build-arg',
        `EXTRA_CA_CERTS=${env.EXTRA_CA_CERTS}`,
        '-t',
        IMAGE,
        '-f',
        'Containerfile',
        '.',
      ]);
    }
    const size = Number(await must('podman', ['image', 'inspect', '--format', '{{.Size}}', IMAGE]));
    console.log(`image ${IMAGE} ready in ${seconds(started)}: ${(size / 1e6).toFixed(0)} MB`);
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    await must('podman', ['run', '-d', '--name', name, '-p', `127.0.0.1:${port}:3000`, IMAGE]);
  });

  afterAll(async () => {
    if (PODMAN) await exec('podman', ['rm', '-f', '-v', name]);
  });

  it('serves /api/health/ready as a non-root user, keeps DATA_DIR in a volume, and its HEALTHCHECK passes', async () => {
    const started = Date.now();
    await waitReady(url, 120_000, async () => (await exec('podman', ['logs', name])).output);
    console.log(`container ready after ${seconds(started)}`);
    const health = (await (await fetch(`${url}/api/health`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ status: 'ok', database: { kind: 'pglite', ok: true }, storage: { driver: 'fs' } });
    // The web app is served too.
    expect(await (await fetch(`${url}/login`)).text()).toContain('<div id="root"></div>');

    expect(await must('podman', ['exec', name, 'id', '-u'])).not.toBe('0');
    const volumes = JSON.parse(
      await must('podman', ['image', 'inspect', '--format', '{{json .Config.Volumes}}', IMAGE]),
    );
    expect(Object.keys(volumes)).toEqual(['/data']);
    const mounts = await must('podman', ['inspect', '--format', '{{range .Mounts}}{{.Destination}} {{end}}', name]);
    expect(mounts.split(' ')).toContain('/data');
    expect(await must('podman', ['exec', name, 'ls', '/data'])).toContain('secret.key');
    // The image's own HEALTHCHECK (kept by --format docker), run now rather than on its interval.
    expect((await exec('podman', ['healthcheck', 'run', name])).code).toBe(0);
  });

  it('stops on SIGTERM within the stop timeout, gracefully (exit code 0)', async () => {
    const started = Date.now();
    await must('podman', ['stop', '-t', '15', name]);
    const took = Date.now() - started;
    expect(await must('podman', ['inspect', '--format', '{{.State.ExitCode}}', name])).toBe('0');
    const logs = (await exec('podman', ['logs', name])).output;
    expect(logs).toContain('SIGTERM: shutting down');
    expect(logs).toMatch(/"signal":"SIGTERM".*"msg":"stopped"/);
    expect(took).toBeLessThan(14_000);
  });
});

describe.skipIf(!COMPOSE)('compose.yaml under podman-compose', () => {
  const project = `sbcompose${process.pid}`;
  let env: NodeJS.ProcessEnv;
  let url: string;
  const compose = (...args: string[]) => must('podman-compose', ['-p', project, '-f', 'compose.yaml', ...args], env);
  const logs = async () =>
    (await exec('podman', ['logs', '--tail', '60', `${project}_app_1`], env)).output +
    (await exec('podman', ['logs', '--tail', '20', `${project}_postgres_1`], env)).output;

  beforeAll(async () => {
    await ensureBase();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    env = podmanEnv({ STUDYBUDDY_PORT: String(port), PUBLIC_URL: `http://localhost:${port}` });
  });

  afterAll(async () => {
    if (COMPOSE) await exec('podman-compose', ['-p', project, '-f', 'compose.yaml', 'down', '-v', '-t', '15'], env);
  });

  it('brings up the app with PostgreSQL and S3; a message and an image sent before down are there after up', async () => {
    // The app's image is the one the test above built (`up` builds it when it is missing).
    let started = Date.now();
    await compose('build', 'postgres', 's3');
    console.log(`compose images of PostgreSQL and the S3 store built in ${seconds(started)}`);
    started = Date.now();
    await compose('up', '-d');
    await waitReady(url, 300_000, logs);
    console.log(`compose up: app ready after ${seconds(started)}`);
    const health = (await (await fetch(`${url}/api/health`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({
      status: 'ok',
      database: { kind: 'postgres', ok: true },
      storage: { driver: 's3', ok: true },
    });

    // Two friends, seeded into PostgreSQL by the image's own seed command.
    const ada = `ada.${project}@g.ucla.edu`;
    const ben = `ben.${project}@g.ucla.edu`;
    const seeded = JSON.stringify([
      { email: ada, name: 'Ada Container', friends: [ben] },
      { email: ben, name: 'Ben Container' },
    ]);
    const ids = JSON.parse(
      await must('podman', ['exec', `${project}_app_1`, 'node', 'packages/server/dist/seed.js', seeded], env),
    ) as Record<string, string>;
    const chatId = encodeURIComponent(chatIdFor(ids[ada]!, ids[ben]!));

    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ada, password: 'password123' }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const api = (p: string, init: RequestInit = {}) =>
      fetch(`${url}${p}`, { ...init, headers: { cookie, ...(init.headers as Record<string, string>) } });

    const attachment = await api(`/api/chats/${chatId}/attachments?kind=image`, {
      method: 'POST',
      headers: { 'content-type': 'image/png' },
      body: PNG,
    });
    expect(attachment.status).toBe(201);
    const imageUrl = ((await attachment.json()) as { url: string }).url;
    const image = await (await api(imageUrl)).arrayBuffer();
    expect(image.byteLength).toBeGreaterThan(0);
    const text = `Sent before down ${randomUUID()}`;
    for (const body of [
      { id: randomUUID(), type: 'image', content: imageUrl },
      { id: randomUUID(), type: 'text', content: text },
    ]) {
      const sent = await api(`/api/chats/${chatId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(sent.status).toBe(201);
    }

    started = Date.now();
    await compose('down', '-t', '15');
    expect(await must('podman', ['ps', '-a', '--filter', `name=${project}_`, '--format', '{{.Names}}'], env)).toBe('');
    await compose('up', '-d');
    await waitReady(url, 300_000, logs);
    console.log(`compose down and up again: app ready after ${seconds(started)}`);

    // The session, the message and the stored image all outlived the containers (PostgreSQL and S3 volumes).
    const page = (await (await api(`/api/chats/${chatId}/messages`)).json()) as MessagePage;
    expect(page.messages.map((m) => m.content)).toEqual([imageUrl, text]);
    const again = await api(imageUrl);
    expect(again.status).toBe(200);
    expect(Buffer.from(await again.arrayBuffer()).equals(Buffer.from(image))).toBe(true);
  });
});
