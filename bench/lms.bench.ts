// Canvas import time (issue 7): the emulator (its own process, like a remote Canvas) answers every request after
// 100 ms; 10 courses, each with 120 assignments, 30 quizzes, 40 discussions and 10 modules of 15 items; per_page 50.
// Loads the course list and all coursework with the product's client (≤ 6 requests in flight) and with a
// sequential client (1 in flight, otherwise the same code); prints both times, the speed-up and the requests.
//   node --import tsx bench/lms.bench.ts
import { spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { CanvasClient } from '../packages/server/src/features/lms/canvas-client.ts';
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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  const concurrent = [];
  const sequential = [];
  for (let i = 0; i < RUNS; i++) {
    concurrent.push(await importAll(6));
    sequential.push(await importAll(1));
  }
  const c = median(concurrent.map((r) => r.ms));
  const s = median(sequential.map((r) => r.ms));
  const sample = concurrent[0]!;
  if (sample.items !== sequential[0]!.items) throw new Error('the two clients loaded different coursework');
  console.log(`Canvas import, ${LATENCY} ms per request, per_page 50, median of ${RUNS} runs`);
  console.log(`  requests per import: ${sample.requests}, coursework items: ${sample.items}`);
  console.log(`  product client (≤ 6 in flight, peak ${sample.inFlight}): ${(c / 1000).toFixed(2)} s`);
  console.log(`  sequential client (1 in flight):       ${(s / 1000).toFixed(2)} s`);
  console.log(`  speed-up: ${(s / c).toFixed(1)}×  (targets: under 3 s, at least 5×)`);
  console.log(
    `  ideal with 6 in flight: ${(((1 + Math.ceil((sample.requests - 1) / 6)) * s) / sample.requests / 1000).toFixed(2)} s` +
      ` (machine: ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)})`,
  );
} finally {
  child.kill('SIGTERM');
}
