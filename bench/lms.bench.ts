// Canvas import time (issue 7): the emulator (its own process, like a remote Canvas) answers every request after
// 100 ms; 10 courses, each with 120 assignments, 30 quizzes, 40 discussions and 10 modules of 15 items; per_page 50.
// Loads the course list and all coursework with the product's client (≤ 6 requests in flight) and with two
// sequential clients: the product's own request plan with 1 in flight, and a plain one that lists each kind of
// coursework with its own endpoint, one page after another (what a simple client does); prints the times, the
// speed-ups and the requests.
//   node --import tsx bench/lms.bench.ts
import { spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { CanvasClient, nextLink } from '../packages/server/src/features/lms/canvas-client.ts';
import { CanvasGate } from '../packages/server/src/features/lms/canvas-gate.ts';
import { fetchCoursework } from '../packages/server/src/features/lms/coursework-fetcher.ts';

const LATENCY = Number(process.env.BENCH_LATENCY_MS ?? 100);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TOKEN = 'bench-token-0123456789abcdefghijklmnop';
const DATA = {
  activeCourses: 10,
  extraCourses: false,
  assignmentsPerCourse: 120,
  quizzesPerCourse: 30,
  discussionsPerCourse: 40,
  modulesPerCourse: 10,
  itemsPerModule: 15,
  filesPerCourse: 0,
};

const child = spawn(process.execPath, ['--import', 'tsx', 'packages/canvas-emulator/src/main.ts'], {
  env: {
    ...process.env,
    CANVAS_EMULATOR_PORT: '0',
    CANVAS_EMULATOR_LATENCY_MS: String(LATENCY),
    CANVAS_EMULATOR_TOKENS: TOKEN,
    CANVAS_EMULATOR_DATA: JSON.stringify(DATA),
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise<string>((resolve, reject) => {
  let out = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    const m = /Canvas emulator at (\S+)/.exec(out);
    if (m) resolve(m[1]!);
  });
  child.once('exit', (code) => reject(new Error(`emulator exited (${code})`)));
});

const control = (path: string, method = 'GET') => fetch(`${url}/__emulator/${path}`, { method });

async function importAll(maxInFlight: number) {
  await control('stats', 'DELETE');
  const client = new CanvasClient({ baseUrl: url, token: TOKEN, perPage: 50, gate: new CanvasGate(maxInFlight) });
  const started = performance.now();
  const courses = (await client.listActiveCourses()).slice(0, 10);
  const result = await fetchCoursework(
    client,
    courses.map((c) => String(c.id)),
  );
  const ms = performance.now() - started;
  const state = (await (await control('state')).json()) as { maxInFlight: number };
  return { ms, requests: client.requests, items: result.coursework.length, inFlight: state.maxInFlight };
}

/** A plain sequential client: every list from its own endpoint, following rel="next" one page at a time. */
async function importPlainSequential() {
  await control('stats', 'DELETE');
  let requests = 0;
  const list = async (path: string): Promise<unknown[]> => {
    const out: unknown[] = [];
    let next: string | null = `${url}${path}${path.includes('?') ? '&' : '?'}per_page=50`;
    while (next) {
      requests++;
      const res = await fetch(next, { headers: { Authorization: `Bearer ${TOKEN}` } });
      out.push(...((await res.json()) as unknown[]));
      next = nextLink(res.headers.get('link'));
    }
    return out;
  };
  const started = performance.now();
  const courses = ((await list('/api/v1/courses?enrollment_state=active')) as { id: number }[]).slice(0, 10);
  let rows = 0;
  for (const { id } of courses) {
    for (const path of [
      `/api/v1/courses/${id}/assignment_groups`,
      `/api/v1/courses/${id}/assignments?include[]=submission`,
      `/api/v1/courses/${id}/quizzes`,
      `/api/v1/courses/${id}/discussion_topics`,
      `/api/v1/courses/${id}/modules?include[]=items&include[]=content_details`,
    ]) {
      rows += (await list(path)).length;
    }
  }
  return { ms: performance.now() - started, requests, rows };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  const concurrent = [];
  const sequential = [];
  const plain = [];
  for (let i = 0; i < RUNS; i++) {
    concurrent.push(await importAll(6));
    sequential.push(await importAll(1));
    plain.push(await importPlainSequential());
  }
  const c = median(concurrent.map((r) => r.ms));
  const s = median(sequential.map((r) => r.ms));
  const p = median(plain.map((r) => r.ms));
  const sample = concurrent[0]!;
  if (sample.items !== sequential[0]!.items) throw new Error('the two clients loaded different coursework');
  console.log(`Canvas import, ${LATENCY} ms per request, per_page 50, median of ${RUNS} runs`);
  console.log(`  requests per import: ${sample.requests}, coursework items: ${sample.items}`);
  console.log(`  product client (≤ 6 in flight, peak ${sample.inFlight}): ${(c / 1000).toFixed(2)} s`);
  console.log(`  same plan, 1 in flight:                ${(s / 1000).toFixed(2)} s  (speed-up ${(s / c).toFixed(1)}×)`);
  console.log(
    `  plain sequential client (${plain[0]!.requests} requests):  ${(p / 1000).toFixed(2)} s  (speed-up ${(p / c).toFixed(1)}×)`,
  );
  console.log(`  targets: under 3 s, at least 5× faster than sequential`);
  console.log(
    `  ideal with 6 in flight: ${(((1 + Math.ceil((sample.requests - 1) / 6)) * s) / sample.requests / 1000).toFixed(2)} s,` +
      ` at most ${(sample.requests / (1 + Math.ceil((sample.requests - 1) / 6))).toFixed(2)}× the same plan` +
      ` (machine: ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)})`,
  );
} finally {
  child.kill('SIGTERM');
}
