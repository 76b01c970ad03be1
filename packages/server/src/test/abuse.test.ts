// The quick part of the abuse suite (issue 13; the full one is `npm run bench abuse`): the real server in its own
// process, so a stalled event loop or a decoder bomb shows in its health probes and its own memory.
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chatIdFor } from '@studybuddy/shared/chat';
import { openDatabase } from '../db/connect.ts';
import { seedFriendships, seedUser } from '../demo/seed-users.ts';
import { createSession, SESSION_COOKIE } from '../features/auth/session.ts';
import { pathologicalTexts, pngBomb } from './hostile-payloads.ts';
import { probeHealth, spawnServer, type SpawnedServer } from './spawn-server.ts';
import { copyMigratedDatabase } from './test-app.ts';

/**
 * Generous bounds that catch the stalled event loop (150 s for the 400,000 spaces) and the 1.7 GB decode, not a
 * busy machine: off the request thread a text may take the NLP lane's whole time budget (20 s) to be answered.
 */
const PROBE_BOUND_MS = 2000;
const ANSWER_BOUND_MS = 30_000;
const GROWTH_BOUND_MB = 300;

/** One GET /api/health on its own connection; the time it took (a failure counts as infinitely slow). */
const probe = (base: string) => probeHealth(base, 60_000).then((r) => (r.status === 200 ? r.ms : Infinity));

const statusKb = (pid: number, field: string) =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

/**
 * Runs `work` while probing /api/health every 100 ms; answers the slowest probe (one still out at the end counts
 * by how long it has waited) and the server's peak RSS growth (the kernel's peak mark, reset at the start).
 */
async function watched<T>(base: string, pid: number, work: () => Promise<T>) {
  const baseline = statusKb(pid, 'VmRSS');
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  const probes: Promise<number>[] = [];
  const sent: number[] = [];
  const fire = () => {
    sent.push(performance.now());
    probes.push(probe(base));
  };
  fire();
  const timer = setInterval(fire, 100);
  const started = performance.now();
  const result = await work();
  const answerMs = performance.now() - started;
  clearInterval(timer);
  const peak = statusKb(pid, 'VmHWM');
  const deadline = new Promise<number>((r) => setTimeout(() => r(Infinity), 2000));
  const times = await Promise.all(probes.map((p) => Promise.race([p, deadline])));
  return {
    result,
    answerMs,
    slowestProbeMs: Math.max(...times),
    probes: times.length,
    growthMb: (peak - baseline) / 1024,
  };
}

describe('one hostile student against the real server', () => {
  let dataDir: string;
  let server: SpawnedServer | undefined;
  let base: string;
  let cookie: string;
  let chatId: string;

  /** (Re)starts the server on the data dir; a test that stalled it leaves it to be replaced, not waited for. */
  async function start() {
    await server?.kill();
    server = await spawnServer({ dataDir });
    base = server.base;
    // The NLP worker's start-up (seconds on a busy machine) is not what the tests time.
    await fetch(`${base}/api/summarize-text`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Cells make energy in the mitochondria. The midterm covers cell transport.' }),
    });
  }

  beforeEach(async () => {
    const answered = await Promise.race([probe(base), new Promise<number>((r) => setTimeout(() => r(Infinity), 2000))]);
    if (answered === Infinity) await start();
  }, 120_000);

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sb-abuse-'));
    await copyMigratedDatabase(dataDir);
    const database = await openDatabase({ dataDir });
    const users = [
      { email: 'mallory@g.ucla.edu', courses: ['BIO 1'], friends: ['frank@g.ucla.edu'] },
      { email: 'frank@g.ucla.edu', courses: ['BIO 1'] },
    ];
    const ids: Record<string, string> = {};
    for (const u of users) ids[u.email] = await seedUser(database.db, u);
    await seedFriendships(database.db, users, ids);
    const attacker = ids['mallory@g.ucla.edu']!;
    cookie = `${SESSION_COOKIE}=${(await createSession(database.db, attacker)).token}`;
    chatId = chatIdFor(attacker, ids['frank@g.ucla.edu']!);
    await database.close();

    await start();
  }, 120_000);

  afterAll(async () => {
    await server?.kill();
    await rm(dataDir, { recursive: true, force: true });
  });

  const post = (url: string, init: { json?: unknown; body?: RequestInit['body']; type?: string }) =>
    fetch(base + url, {
      method: 'POST',
      headers: {
        cookie,
        ...(init.json !== undefined || init.type ? { 'content-type': init.type ?? 'application/json' } : {}),
      },
      body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
      // Past this the request is abandoned (the server would still be stuck: the probes say so).
      signal: AbortSignal.timeout(ANSWER_BOUND_MS + 5000),
    }).then(
      async (r) => ({ status: r.status, body: await r.text() }),
      () => ({ status: 0, body: 'no answer' }),
    );

  it.each([
    ['"a" + 400,000 spaces + "b"', pathologicalTexts.spaces(400_000)],
    ['400,000 "<"', pathologicalTexts.openBrackets(400_000)],
    ['160,000 unclosed "<a "', pathologicalTexts.unclosedTags(160_000)],
    ['newlines then spaces', pathologicalTexts.newlinesThenSpaces(499_998)],
  ])(
    'summarize-text with %s answers quickly and /api/health stays responsive',
    async (_label, text) => {
      const run = await watched(base, server!.pid, () => post('/api/summarize-text', { json: { text } }));
      expect(run.result.status, run.result.body).toBeGreaterThanOrEqual(200);
      expect(run.result.status, run.result.body).toBeLessThan(500);
      expect(run.answerMs).toBeLessThan(ANSWER_BOUND_MS);
      expect(run.slowestProbeMs).toBeLessThan(PROBE_BOUND_MS);
    },
    60_000,
  );

  it('a 30000×30000 PNG as a course document ends as unreadable without growing the server by 300 MB', async () => {
    const png = await pngBomb(30_000, 30_000, 8);
    const run = await watched(base, server!.pid, async () => {
      const form = new FormData();
      form.append('courseId', 'seed-0');
      form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'scan.png');
      const up = await fetch(`${base}/api/upload-document`, { method: 'POST', headers: { cookie }, body: form });
      const id = ((await up.json()) as { document?: { id: string } }).document?.id;
      if (!id) return { upload: up.status, status: 'refused' };
      const until = Date.now() + 45_000;
      for (;;) {
        const doc = (await (await fetch(`${base}/api/documents/${id}`, { headers: { cookie } })).json()) as {
          status: string;
        };
        if (['done', 'failed'].includes(doc.status) || Date.now() > until) return { upload: up.status, ...doc };
        await new Promise((r) => setTimeout(r, 250));
      }
    });
    expect(['failed', 'refused']).toContain(run.result.status);
    expect(run.growthMb).toBeLessThan(GROWTH_BOUND_MB);
    expect(run.slowestProbeMs).toBeLessThan(PROBE_BOUND_MS);
  });

  it('a 30000×30000 PNG as a profile picture or a chat image is refused without growing the server by 300 MB', async () => {
    const small = await pngBomb(30_000, 30_000, 1);
    const large = await pngBomb(30_000, 30_000, 8);
    const run = await watched(base, server!.pid, async () => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(small)], { type: 'image/png' }), 'me.png');
      const profile = await post('/api/uploads/profile-image', { body: form });
      const chat = await post(`/api/chats/${chatId}/attachments?kind=image`, {
        body: new Uint8Array(large),
        type: 'image/png',
      });
      return { profile, chat };
    });
    for (const answer of [run.result.profile, run.result.chat]) {
      expect(answer.status, answer.body).toBeGreaterThanOrEqual(400);
      expect(answer.status, answer.body).toBeLessThan(500);
    }
    expect(run.growthMb).toBeLessThan(GROWTH_BOUND_MB);
  });
});
