// The one search box (issue 17): server time of GET /api/search over 1,000,000 messages on PostgreSQL.
// Seeds, in SQL (generate_series, one statement per table): 10,000 students of one college, 50,000 one-to-one
// chats (10 friends each), 2,000 groups of 8–29 members, 1,000,000 messages over them (a few conversations busy,
// most quiet: conversation rank ~ random()^2), 20,000 course-document pages and 40 coursework items per student.
// Then times whole search requests (all five kinds) through the app for typical words, rare words, prefixes as
// typed and two-word queries, and prints p50/p95/p99 per kind of query and overall, with the load average.
//   node --import tsx bench/search.bench.ts                 (or: npm run bench search)
// Env: BENCH_PG_URL (postgres://postgres@127.0.0.1:5432/postgres), BENCH_MESSAGES (1000000), BENCH_STUDENTS
//      (10000), BENCH_RUNS (requests per kind of query, 200), BENCH_KEEP=1 keeps the scratch database,
//      BENCH_DATABASE_URL (a database a kept run seeded: time it again without seeding).
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { cookieFor, insertStudents } from '../packages/server/src/features/social/students.fixture.ts';
import { dropPostgres, makePostgres } from '../packages/server/src/test/postgres-databases.ts';

const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const REUSE = process.env.BENCH_DATABASE_URL;
const KEEP = process.env.BENCH_KEEP === '1' || !!REUSE;
const FRIENDS_EACH_WAY = 5;
const GROUPS = Math.round(STUDENTS / 5);
const TARGET_P95_MS = 50;

let seed = 7;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

const FIRST = ['Ada', 'Alan', 'Grace', 'Linus', 'Maria', 'Noah', 'Emma', 'Priya', 'Kenji', 'Fatima', 'Liam', 'Zoe'];
const LAST = ['Lovelace', 'Turing', 'Hopper', 'Garcia', 'Nguyen', 'Kim', 'Patel', 'Chen', 'Smith', 'Okafor'];

/** Study chat words, most frequent first (Zipf-like picks favour the start), then made-up rarer words. */
const COMMON = (
  'the to and a i you it is for of in we on that this at be can have do with are so my what just when is it ' +
  'ok yes no lol thanks meet tomorrow today tonight library exam homework lecture quiz notes professor class ' +
  'study group chapter problem set due deadline question answer help project paper essay lab report midterm ' +
  'final grade review slides reading assignment office hours room campus coffee lunch dinner week weekend ' +
  'monday tuesday wednesday thursday friday morning afternoon evening late early later sure sounds good great ' +
  'think know need want going come see send share drive link file pdf page section formula theorem proof ' +
  'derivative integral matrix vector graph function algorithm code bug compile test submit canvas zoom'
).split(' ');
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'pe', 'da', 'zu', 'fo', 'gi', 'ha', 'bre', 'str'];
const RARE = Array.from(
  { length: 2500 },
  (_, i) => SYLLABLES[i % 16]! + SYLLABLES[Math.floor(i / 16) % 16]! + SYLLABLES[Math.floor(i / 256) % 16]!,
);
const VOCAB = [...new Set([...COMMON, ...RARE])];

/** Everything but the students, in set-based SQL. */
async function seedConversations(client: pg.Client) {
  const step = async (label: string, text: string, values: unknown[] = []) => {
    const t0 = Date.now();
    const res = await client.query(text, values);
    console.log(`  ${label}: ${res.rowCount ?? ''} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  };
  await client.query(`SET maintenance_work_mem = '512MB'`);
  await client.query(`SET synchronous_commit = off`);
  await step(
    'students numbered',
    `CREATE TABLE bench_students AS SELECT (row_number() OVER (ORDER BY user_id) - 1)::int AS n, user_id AS id FROM profiles`,
  );
  await client.query(`CREATE UNIQUE INDEX ON bench_students (n)`);
  await step(
    'friendships (connections, both ways)',
    `INSERT INTO connections (user_id, friend_id)
     SELECT a.id, b.id FROM bench_students a CROSS JOIN generate_series(1, $1::int) k
       JOIN bench_students b ON b.n = (a.n + k * 7) % $2
     UNION ALL
     SELECT b.id, a.id FROM bench_students a CROSS JOIN generate_series(1, $1::int) k
       JOIN bench_students b ON b.n = (a.n + k * 7) % $2`,
    [FRIENDS_EACH_WAY, STUDENTS],
  );
  await step(
    'chats',
    `INSERT INTO chats (id, user_a, user_b)
     SELECT least(user_id, friend_id) || '_' || greatest(user_id, friend_id), least(user_id, friend_id), greatest(user_id, friend_id)
     FROM connections WHERE user_id < friend_id`,
  );
  await step(
    'groups',
    `INSERT INTO groups (id, kind, name, description, created_by)
     SELECT 'bench-group-' || g, 'group', ($1::text[])[1 + g % array_length($1::text[], 1)] || ' study group ' || g, '',
       (SELECT id FROM bench_students WHERE n = (g * 5) % $2)
     FROM generate_series(0, $3::int - 1) g`,
    [COMMON.slice(40, 120), STUDENTS, GROUPS],
  );
  await step(
    'group members',
    `INSERT INTO group_members (group_id, user_id)
     SELECT DISTINCT 'bench-group-' || g, s.id FROM generate_series(0, $1::int - 1) g
       CROSS JOIN LATERAL generate_series(0, 7 + g % 22) j
       JOIN bench_students s ON s.n = (g * 5 + j * 3) % $2`,
    [GROUPS, STUDENTS],
  );
  await step(
    'conversations numbered',
    `CREATE TABLE bench_conversations AS
     SELECT (row_number() OVER (ORDER BY random()) - 1)::int AS n, kind, id, members FROM (
       SELECT 'chat' AS kind, id, ARRAY[user_a, user_b] AS members FROM chats
       UNION ALL
       SELECT 'group', group_id, array_agg(user_id) FROM group_members GROUP BY group_id) c`,
  );
  await client.query(`CREATE UNIQUE INDEX ON bench_conversations (n)`);
  const conversations = Number(
    (await client.query<{ n: string }>(`SELECT count(*) AS n FROM bench_conversations`)).rows[0]!.n,
  );
  await client.query(`DROP INDEX messages_search_idx`);
  await client.query(`DROP INDEX messages_conversation_idx`);
  // Word i of the vocabulary is picked with probability ~ i^(-2/3) (random()^3), 3–14 words a message.
  await step(
    'messages',
    `INSERT INTO messages (id, conversation_kind, conversation_id, sender_id, sender_name, type, content, created_at)
     SELECT 'bench-' || x.i, c.kind, c.id, c.members[1 + (x.i % array_length(c.members, 1))], 'Student', 'text',
       array_to_string(ARRAY(SELECT ($1::text[])[1 + floor(array_length($1::text[], 1) * random() ^ 3)::int]
         FROM generate_series(1, 3 + (x.i % 12))), ' '),
       now() - ($2::int - x.i) * interval '15 seconds'
     FROM (SELECT i, floor($3::int * random() ^ 2)::int AS cn FROM generate_series(1, $2::int) i) x
     JOIN bench_conversations c ON c.n = x.cn
     ORDER BY x.i`,
    [VOCAB, MESSAGES, conversations],
  );
  await step(
    'index messages (conversation, cursor)',
    `CREATE INDEX messages_conversation_idx ON messages USING btree (conversation_kind, conversation_id, cursor)`,
  );
  await step('index messages (words, GIN)', `CREATE INDEX messages_search_idx ON messages USING gin (search_vector)`);
  await step(
    'course documents',
    `INSERT INTO course_documents (id, user_id, course_id, name, type, source, status, processed)
     SELECT 'bench-doc-' || s.n || '-' || d, s.id, 'c0', 'Lecture ' || d || '.pdf', 'document', 'local', 'done', true
     FROM bench_students s CROSS JOIN generate_series(1, 2) d WHERE s.n % 5 = 0`,
  );
  await step(
    'document pages',
    `INSERT INTO document_pages (document_id, page, unit, label, text, method)
     SELECT d.id, p, 'page', 'Page ' || p,
       array_to_string(ARRAY(SELECT ($1::text[])[1 + floor(array_length($1::text[], 1) * random() ^ 3)::int]
         FROM generate_series(1, 150 + p - p)), ' '), 'text'
     FROM course_documents d CROSS JOIN generate_series(1, 5) p`,
    [VOCAB],
  );
  await step(
    'coursework caches (40 items each)',
    `INSERT INTO coursework_cache (user_id, connection_id, courses_key, courses, coursework, skipped_courses, fetched_at)
     SELECT s.id, 'bench', '101', '[{"id":"101","name":"Calculus"}]'::jsonb,
       (SELECT jsonb_agg(jsonb_build_object('id', 'assignment_' || k, 'type', 'assignment',
          'name', ($1::text[])[1 + (k * 7 + s.n) % array_length($1::text[], 1)] || ' ' || 'homework ' || k,
          'course_id', '101', 'assignment_group', null, 'due_date', to_char(now() + (k - 20) * interval '1 day', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
          'points_possible', 10, 'is_graded', true, 'grade', null, 'submitted', false, 'html_url', ''))
        FROM generate_series(1, 40 + s.n - s.n) k),
       '[]'::jsonb, now()
     FROM bench_students s`,
    [COMMON.slice(40)],
  );
  await step('analyze', `VACUUM ANALYZE`);
}

async function main() {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sb-bench-search-'));
  const scratch = REUSE ? undefined : await makePostgres(PG_URL);
  const databaseUrl = REUSE ?? scratch!.url;
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl,
    RATE_LIMITS: 'false',
  });
  const app = await buildApp(config, { logger: false });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const t0 = Date.now();
    let students: { id: string }[];
    if (REUSE) {
      students = (await client.query<{ id: string }>(`SELECT id FROM bench_students ORDER BY n`)).rows;
    } else {
      students = await insertStudents(
        app.ctx.db,
        Array.from({ length: STUDENTS }, () => ({
          name: `${pick(FIRST)} ${pick(LAST)}`,
          courses: ['Calculus', 'Physics'],
        })),
      );
      console.log(`seeding on PostgreSQL: ${students.length} students`);
      await seedConversations(client);
    }
    const counts = await client.query<{ messages: string; chats: string; groups: string; members: string }>(
      `SELECT (SELECT count(*) FROM messages) AS messages, (SELECT count(*) FROM chats) AS chats,
         (SELECT count(*) FROM groups) AS groups, (SELECT count(*) FROM group_members) AS members`,
    );
    const c = counts.rows[0]!;
    console.log(
      `seeded ${c.messages} messages in ${c.chats} chats and ${c.groups} groups (${c.members} memberships) ` +
        `in ${((Date.now() - t0) / 1000).toFixed(0)} s${KEEP ? ` (database kept: ${databaseUrl})` : ''}`,
    );
    const perStudent = await client.query<{ p50: string; p95: string; max: string }>(
      `WITH per_conversation AS (
         SELECT conversation_kind AS kind, conversation_id AS id, count(*) AS n FROM messages GROUP BY 1, 2),
       per_student AS (
         SELECT s.id, coalesce(sum(pc.n), 0) AS n FROM bench_students s
         JOIN bench_conversations bc ON s.id = ANY (bc.members)
         LEFT JOIN per_conversation pc ON pc.kind = bc.kind AND pc.id = bc.id
         WHERE s.n % 200 = 0 GROUP BY s.id)
       SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY n) AS p50,
         percentile_cont(0.95) WITHIN GROUP (ORDER BY n) AS p95, max(n) AS max FROM per_student`,
    );
    const ps = perStudent.rows[0]!;
    console.log(
      `messages a student can search (sample of ${Math.ceil(STUDENTS / 200)}): median ${Math.round(Number(ps.p50))}, ` +
        `p95 ${Math.round(Number(ps.p95))}, max ${ps.max}`,
    );

    const viewers = await Promise.all(Array.from({ length: 40 }, () => cookieFor(app.ctx.db, pick(students).id)));
    const time = async (q: string) => {
      const start = process.hrtime.bigint();
      const res = await app.inject({
        method: 'GET',
        url: `/api/search?q=${encodeURIComponent(q)}`,
        headers: { cookie: pick(viewers) },
      });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (res.statusCode !== 200) throw new Error(`${q}: ${res.statusCode} ${res.body}`);
      return ms;
    };
    const frequent = COMMON.slice(0, 60);
    const study = COMMON.slice(60);
    const kinds: [string, () => string][] = [
      ['frequent word ("the", "meet", ...)', () => pick(frequent)],
      ['study word ("library", "midterm", ...)', () => pick(study)],
      ['rare word', () => pick(RARE)],
      ['prefix as typed (2-4 letters)', () => pick(study).slice(0, 2 + Math.floor(rand() * 3))],
      ['two words, the last half typed', () => `${pick(frequent)} ${pick(study).slice(0, 3)}`],
    ];
    console.log(`load average before timing: ${load()} on ${cpus().length} CPUs`);
    const all: number[] = [];
    for (const [label, query] of kinds) {
      for (let i = 0; i < 10; i++) await time(query());
      const samples: number[] = [];
      for (let i = 0; i < RUNS; i++) samples.push(await time(query()));
      all.push(...samples);
      console.log(
        `${label.padEnd(38)} p50 ${pct(samples, 0.5).toFixed(1).padStart(6)} ms  p95 ${pct(samples, 0.95).toFixed(1).padStart(6)} ms  ` +
          `p99 ${pct(samples, 0.99).toFixed(1).padStart(6)} ms  (${RUNS} requests)`,
      );
    }
    const p95 = pct(all, 0.95);
    console.log(
      `all search requests                    p50 ${pct(all, 0.5).toFixed(1).padStart(6)} ms  p95 ${p95.toFixed(1).padStart(6)} ms  ` +
        `p99 ${pct(all, 0.99).toFixed(1).padStart(6)} ms  (${all.length} requests; target p95 <= ${TARGET_P95_MS} ms: ` +
        `${p95 <= TARGET_P95_MS ? 'met' : 'NOT met'})`,
    );
    console.log(`load average after timing: ${load()}`);
  } finally {
    await client.end();
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
    if (scratch && !KEEP) await dropPostgres(PG_URL, scratch.name);
  }
}

await main();
