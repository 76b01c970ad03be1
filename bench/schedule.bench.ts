// Free time (issue 27): Find a time for a group of 10 over two weeks, and the match ranking with the free-time
// signal over 60,000 students of one college, each with a painted week. Prints p50/p95 server time.
//   node --import tsx bench/schedule.bench.ts            # PGlite (embedded)
//   node --import tsx bench/schedule.bench.ts --pg URL   # PostgreSQL (a scratch database is created and dropped)
// Targets (PostgreSQL): Find a time p95 < 50 ms, ranking p95 < 100 ms.
import { cpus, loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import { YEARS } from '../packages/shared/src/limits.ts';
import { scratchApp } from './scratch-app.ts';
import {
  befriend,
  cookieFor,
  insertStudents,
  type StudentSpec,
} from '../packages/server/src/features/social/students.fixture.ts';

const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 60_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const pgIndex = process.argv.indexOf('--pg');
const pgBase = pgIndex > 0 ? process.argv[pgIndex + 1] : undefined;
const ZONES = ['Europe/Berlin', 'America/New_York', 'America/Los_Angeles', 'Asia/Kolkata', 'UTC'];

let seed = 7;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
const COURSES = Array.from({ length: 400 }, (_, i) => `Course ${i}`);
const MAJORS = ['History', 'Computer Science', 'Biology', 'Economics', 'Mathematics', 'Art'];

/** A plausible week: a few free blocks of 1–4 hours on some days. */
function week(): string {
  const cells = new Array<string>(336).fill('0');
  for (let day = 0; day < 7; day++) {
    for (let b = 0; b < 2; b++) {
      if (rand() < 0.4) continue;
      const start = 16 + Math.floor(rand() * 24);
      const length = 2 + Math.floor(rand() * 7);
      for (let c = start; c < Math.min(48, start + length); c++) cells[day * 48 + c] = '1';
    }
  }
  return cells.join('');
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

async function main() {
  const scratch = await scratchApp(pgBase);
  const { app } = scratch;
  const db = app.ctx.db;
  try {
    const t0 = Date.now();
    const specs: StudentSpec[] = Array.from({ length: STUDENTS }, () => ({
      college: 'UCLA',
      name: `Student ${Math.floor(rand() * 1e6)}`,
      major: pick(MAJORS),
      year: pick(YEARS),
      courses: Array.from({ length: 1 + Math.floor(rand() * 5) }, () => pick(COURSES)),
    }));
    const made = await insertStudents(db, specs);
    // Weeks written directly (the ranking bits as the week itself, three times from this week's Monday: the bench
    // measures reading, not saving).
    const day = Math.floor(Date.now() / 86_400_000);
    const monday = new Date((day - ((((day + 3) % 7) + 7) % 7)) * 86_400_000).toISOString().slice(0, 10);
    for (let i = 0; i < made.length; i += 1000) {
      const values = made.slice(i, i + 1000).map((s) => {
        const cells = week();
        return sql`(${s.id}, ${pick(ZONES)}, ${cells}, ${cells + cells + cells}::bit(1008), ${monday}::date)`;
      });
      await db.execute(
        sql`INSERT INTO schedule_weeks (user_id, time_zone, cells, utc_free, utc_from) VALUES ${sql.join(values, sql`, `)}`,
      );
    }
    await db.execute(sql`VACUUM ANALYZE`);
    console.log(
      `seeded ${made.length} students with weeks in ${((Date.now() - t0) / 1000).toFixed(1)} s on ${pgBase ? 'PostgreSQL' : 'PGlite'}`,
    );

    // A group of 10: its creator and nine friends.
    const [owner, ...others] = made.slice(0, 10);
    for (const o of others) await befriend(db, owner!.id, o.id);
    const ownerCookie = await cookieFor(db, owner!.id);
    const group = await app.inject({
      method: 'POST',
      url: '/api/groups',
      headers: { cookie: ownerCookie },
      payload: { name: 'Bench group', memberIds: others.map((o) => o.id) },
    });
    if (group.statusCode !== 201) throw new Error(`group: ${group.statusCode} ${group.body}`);
    const groupId = group.json<{ id: string }>().id;
    const viewers = await Promise.all(Array.from({ length: 20 }, () => cookieFor(db, pick(made).id)));

    const time = async (url: string, cookie: string) => {
      const start = process.hrtime.bigint();
      const res = await app.inject({ method: 'GET', url, headers: { cookie } });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      return ms;
    };
    const measure = async (label: string, url: () => string, cookie: () => string, target: number) => {
      for (let i = 0; i < 10; i++) await time(url(), cookie());
      const samples: number[] = [];
      for (let i = 0; i < RUNS; i++) samples.push(await time(url(), cookie()));
      const p95 = pct(samples, 0.95);
      console.log(
        `${label}: p50 ${pct(samples, 0.5).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (${RUNS} requests; target p95 < ${target} ms${pgBase ? '' : ' on PostgreSQL'})`,
      );
    };
    console.log(
      `load average: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(', ')} on ${cpus().length} CPUs`,
    );
    await measure(
      'Find a time, group of 10, two weeks, 1 hour',
      () => `/api/groups/${groupId}/find-a-time?length=60`,
      () => ownerCookie,
      50,
    );
    await measure(
      `suggestions ranked with free time, first page (10) of ${STUDENTS}`,
      () => '/api/social/matches?limit=10',
      () => pick(viewers),
      100,
    );
  } finally {
    await scratch.close();
  }
}

await main();
