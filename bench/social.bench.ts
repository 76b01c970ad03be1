// Match finder and user search latency (issue 5): 50,000 students in one college (plus two smaller colleges),
// 1–10 courses each. Prints p50/p95 of the first suggestions page and of a 3-letter user search.
//   node --import tsx bench/social.bench.ts            # PGlite (embedded)
//   node --import tsx bench/social.bench.ts --pg URL   # PostgreSQL (a scratch database is created and dropped)
import { cpus, loadavg } from 'node:os';
import { YEARS } from '../packages/shared/src/limits.ts';
import { scratchApp } from './scratch-app.ts';
import {
  cookieFor,
  insertStudents,
  type StudentSpec,
} from '../packages/server/src/features/social/students.fixture.ts';

const MAIN = Number(process.env.BENCH_STUDENTS ?? 50_000);
const OTHER = Math.round(MAIN / 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const pgIndex = process.argv.indexOf('--pg');
const pgBase = pgIndex > 0 ? process.argv[pgIndex + 1] : undefined;
/** Keep the PostgreSQL database or PGlite data dir afterwards (to EXPLAIN the queries). */
const keep = process.argv.includes('--keep');

let seed = 42;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
const FIRST = [
  'John',
  'Joanna',
  'Maria',
  'Mark',
  'Alex',
  'Alicia',
  'Sam',
  'Samira',
  'Chris',
  'Christine',
  'Li',
  'Liam',
  'Noah',
  'Nora',
  'Emma',
  'Ethan',
  'Olivia',
  'Oscar',
  'Ava',
  'Aiden',
  'Mia',
  'Mateo',
  'Zoe',
  'Zack',
  'Priya',
  'Pedro',
  'Kenji',
  'Kira',
  'Fatima',
  'Felix',
];
const LAST = [
  'Smith',
  'Garcia',
  'Nguyen',
  'Kim',
  'Patel',
  'Johnson',
  'Lee',
  'Brown',
  'Lopez',
  'Chen',
  'Wang',
  'Davis',
  'Miller',
  'Wilson',
  'Moore',
];
const SUBJECTS = ['CS', 'Math', 'Physics', 'Chem', 'Bio', 'Econ', 'History', 'Stats', 'Psych', 'Phil'];
const COURSES = SUBJECTS.flatMap((s) => Array.from({ length: 40 }, (_, i) => `${s} ${i + 1}${i % 3 ? 'A' : ''}`));
const MAJORS = [
  'Computer Science',
  'Mathematics',
  'Physics',
  'Chemistry',
  'Biology',
  'Economics',
  'History',
  'Statistics',
  'Psychology',
  'Philosophy',
  'English',
  'Art',
  'Music',
  'Sociology',
  'Political Science',
  'Engineering',
  'Linguistics',
  'Geography',
  'Anthropology',
  'Film',
];

function student(college: StudentSpec['college']): StudentSpec {
  const n = 1 + Math.floor(rand() * 10);
  return {
    college,
    name: `${pick(FIRST)} ${pick(LAST)}`,
    major: pick(MAJORS),
    year: pick(YEARS),
    courses: Array.from({ length: n }, () => pick(COURSES)),
  };
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

async function main() {
  const scratch = await scratchApp(pgBase, { keep });
  const { app } = scratch;
  const db = app.ctx.db;
  try {
    const t0 = Date.now();
    const specs = [
      ...Array.from({ length: MAIN }, () => student('UCLA')),
      ...Array.from({ length: OTHER }, () => student('CMU')),
      ...Array.from({ length: OTHER }, () => student('WISC')),
    ];
    const made = await insertStudents(db, specs);
    await db.execute('VACUUM ANALYZE');
    if (keep && scratch.databaseUrl) console.log(`database ${scratch.databaseUrl}`);
    console.log(
      `seeded ${made.length} students (${MAIN} in UCLA) in ${((Date.now() - t0) / 1000).toFixed(1)} s on ${pgBase ? 'PostgreSQL' : 'PGlite'}`,
    );

    const ucla = made.slice(0, MAIN);
    const viewers = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const s = pick(ucla);
        return cookieFor(db, s.id);
      }),
    );
    const time = async (url: string, cookie: string) => {
      const start = process.hrtime.bigint();
      const res = await app.inject({ method: 'GET', url, headers: { cookie } });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      return ms;
    };
    const measure = async (label: string, url: () => string) => {
      for (let i = 0; i < 10; i++) await time(url(), pick(viewers));
      const samples: number[] = [];
      for (let i = 0; i < RUNS; i++) samples.push(await time(url(), pick(viewers)));
      console.log(
        `${label}: p50 ${pct(samples, 0.5).toFixed(1)} ms, p95 ${pct(samples, 0.95).toFixed(1)} ms (${RUNS} requests)`,
      );
    };
    console.log(
      `load average: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(', ')} on ${cpus().length} CPUs`,
    );
    // The floor under the current machine load: an authenticated request doing one indexed count.
    await measure('baseline (notification badge)', () => '/api/social/notifications/badge');
    await measure('suggestions, first page (10)', () => '/api/social/matches?limit=10');
    await measure('user search, 3 letters', () => `/api/social/search?q=${pick(FIRST).slice(0, 3).toLowerCase()}`);
  } finally {
    await scratch.close();
  }
}

await main();
