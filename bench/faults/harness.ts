// The load every fault case runs under: the real server (spawned), 200 students in live chat at 200 msg/s over their
// sockets (bench/faults/students.ts), a student uploading a course document every 2 s so document processing runs,
// and probes that watch what the fault does: /api/health/ready every 100 ms and an HTTP chat write every 100 ms,
// each answer's status and time kept.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chatIdFor } from '../../packages/shared/src/chat.ts';
import { textPdf } from '../../packages/server/src/features/documents/test/fixtures.ts';
import { spawnServer, type SpawnedServer } from '../../packages/server/src/test/spawn-server.ts';
import { logIn } from '../abuse/http.ts';
import { population, type Population } from '../chat/load.ts';
import { onCleanup, procStats, root, sleep } from '../chat/util.ts';
import { Students, type SeededStudents } from './students.ts';

export const STUDENTS = Number(process.env.BENCH_FAULT_STUDENTS ?? 200);
export const RATE = Number(process.env.BENCH_FAULT_RATE ?? 200);
const DOC_EVERY_MS = 2000;

export interface Sample {
  at: number;
  status: number;
  ms: number;
}

/** Polls `fn` every `everyMs`, one call at a time, keeping each answer's status and time. */
class Prober {
  readonly samples: Sample[] = [];
  private stopped = false;
  private done: Promise<void>;
  constructor(fn: () => Promise<number>, everyMs: number) {
    this.done = (async () => {
      while (!this.stopped) {
        const t0 = performance.now();
        const status = await fn().catch(() => 0);
        this.samples.push({ at: t0, status, ms: performance.now() - t0 });
        await sleep(Math.max(0, everyMs - (performance.now() - t0)));
      }
    })();
  }
  async stop() {
    this.stopped = true;
    await this.done;
  }
  /** Samples taken after `since` (performance.now()). */
  after(since: number): Sample[] {
    return this.samples.filter((s) => s.at >= since);
  }
}

export interface Harness {
  server: SpawnedServer;
  students: Students;
  ready: Prober;
  writes: Prober;
  /** The documents uploaded so far (id), and answers of failed uploads by status. */
  documents: string[];
  uploadStatuses: Map<number, number>;
  /** The HTTP writer's 5xx answers that were not a clear refusal ('…_unavailable'), with their bodies. */
  unclearWrites: string[];
  /** Why the service was not back after a fault (measure.ts backAfter), one line each time. */
  notBack: string[];
  /** For each backAfter: ms after the fault's end until ready answered 200, every socket was live, every ack came. */
  backParts: string[];
  docCookie: string;
  base: string;
  /** The session cookie of student `i` (another session than its socket's is fine: sessions are many). */
  cookie(i: number): string;
  rssMb(): number;
  /** Ids of the documents not yet in a final state ('done' or 'failed'), and of those that failed. */
  documentStates(): Promise<{ unfinished: string[]; failed: string[] }>;
  /** Stops the load and the probes (the server keeps running). */
  stopLoad(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Seeds `STUDENTS` students (chats of two and groups of ten, every group member a friend of every other) and a
 * document student with one course, starts the server with `env` (DATABASE_URL, DATA_DIR, STORAGE…) and puts the
 * load on it.
 */
export async function startHarness(
  env: NodeJS.ProcessEnv & { DATA_DIR: string },
  opts: { documents?: boolean } = {},
): Promise<Harness> {
  const pop: Population = population(STUDENTS, Math.floor(STUDENTS / 10));
  const seedEnv = { ...process.env, LOG_LEVEL: 'error', DATABASE_URL: '', ...env };
  const seeded = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'bench/chat/seed.ts', String(pop.users), String(pop.groups.length)],
    { cwd: root, env: seedEnv, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (seeded.status !== 0) throw new Error(`seeding failed: ${seeded.stderr}`);
  const seed = JSON.parse(seeded.stdout) as SeededStudents;
  const docsSeed = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'packages/server/src/cli/seed.ts',
      JSON.stringify([{ email: 'faults-docs@g.ucla.edu', courses: ['BIO'] }]),
    ],
    { cwd: root, env: seedEnv, encoding: 'utf8' },
  );
  if (docsSeed.status !== 0) throw new Error(`seeding the document student failed: ${docsSeed.stderr}`);

  const server = await spawnServer({ dataDir: env.DATA_DIR, env: { LOG_LEVEL: 'warn', ...env } });
  const stopServer = onCleanup(() => server.kill());
  const base = server.base;
  const chatIds = pop.chats.map((c) => chatIdFor(seed.users[c.members[0]!]!.id, seed.users[c.members[1]!]!.id));
  const students = new Students(base, seed, pop, chatIds);
  await students.open();

  // One more session of student 0 writes over HTTP: what a page without a socket sees.
  const writeBodies: string[] = [];
  const writer = `sb_session=${seed.users[0]!.token}`;
  const writes = new Prober(async () => {
    const res = await fetch(`${base}/api/chats/${chatIds[0]}/messages`, {
      method: 'POST',
      headers: { cookie: writer, 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ id: randomUUID(), type: 'text', content: 'over http' }),
      signal: AbortSignal.timeout(30_000),
    });
    const body = await res.text();
    if (res.status >= 500 && !/"code":"\w+_unavailable"|"code":"disk_full"/.test(body)) {
      writeBodies.push(`${res.status} ${body.slice(0, 200)}`);
    }
    return res.status;
  }, 100);
  const ready = new Prober(async () => {
    const res = await fetch(`${base}/api/health/ready`, { signal: AbortSignal.timeout(30_000) });
    await res.text();
    return res.status;
  }, 100);

  const login = await logIn(base, 'faults-docs@g.ucla.edu', 'password123', '127.0.0.1');
  if (login.status !== 200) throw new Error(`the document student's log-in answered ${login.status}`);
  const docCookie = login.cookie;
  const documents: string[] = [];
  const uploadStatuses = new Map<number, number>();
  const pdf = await textPdf([['Cells and membranes.', 'Mitochondria produce ATP.'], ['Enzymes lower energy.']]);
  let docsStopped = !(opts.documents ?? true);
  const docLoop = (async () => {
    for (let n = 0; !docsStopped; n++) {
      const t0 = performance.now();
      try {
        const form = new FormData();
        form.append('courseId', 'seed-0');
        form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), `notes-${n}.pdf`);
        const res = await fetch(`${base}/api/upload-document`, {
          method: 'POST',
          headers: { cookie: docCookie, origin: base },
          body: form,
          signal: AbortSignal.timeout(30_000),
        });
        const body = (await res.json().catch(() => ({}))) as { document?: { id: string } };
        if (body.document) documents.push(body.document.id);
        else uploadStatuses.set(res.status, (uploadStatuses.get(res.status) ?? 0) + 1);
      } catch {
        uploadStatuses.set(0, (uploadStatuses.get(0) ?? 0) + 1);
      }
      await sleep(Math.max(0, DOC_EVERY_MS - (performance.now() - t0)));
    }
  })();
  students.start(RATE);

  let loadStopped = false;
  const stopLoad = async () => {
    if (loadStopped) return;
    loadStopped = true;
    students.stopSending();
    docsStopped = true;
    await Promise.all([writes.stop(), ready.stop(), docLoop]);
  };
  const harness: Harness = {
    server,
    students,
    ready,
    writes,
    documents,
    uploadStatuses,
    unclearWrites: writeBodies,
    notBack: [],
    backParts: [],
    docCookie,
    base,
    cookie: (i) => `sb_session=${seed.users[i]!.token}`,
    rssMb: () => procStats(server.pid).rssMb,
    async documentStates() {
      const unfinished: string[] = [];
      const failed: string[] = [];
      for (const id of documents) {
        const res = await fetch(`${base}/api/documents/${id}`, { headers: { cookie: docCookie } });
        const status = res.ok ? ((await res.json()) as { status: string }).status : `http ${res.status}`;
        if (status === 'failed') failed.push(id);
        else if (status !== 'done') unfinished.push(id);
      }
      return { unfinished, failed };
    },
    stopLoad,
    async close() {
      await stopLoad();
      students.close();
      await stopServer();
    },
  };
  return harness;
}

/** 'status×count' of samples, e.g. '201×80, 503×12'. */
export function tallySamples(samples: Sample[], prefix: string): string[] {
  const counts = new Map<number, number>();
  for (const s of samples) counts.set(s.status, (counts.get(s.status) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => a[0] - b[0])
    .map(([status, n]) => `${prefix} ${status === 0 ? 'no answer' : status}×${n}`);
}
