// Case 1: PostgreSQL restarts under load (`pg_ctl restart -m fast` on a cluster the bench owns), then every backend
// is ended (`pg_terminate_backend`) twice in a row. The server must keep running, answer not-ready while the
// database is away, refuse writes with a clear 503 (never a 500), reconnect its pool and its bus, and its clients
// resync: back within 5 s of the database, no acknowledged message lost, none twice.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PROCESS_JOB } from '../../packages/server/src/features/documents/document-processor.ts';
import { lastLines } from '../../packages/server/src/test/spawn-server.ts';
import { sleep } from '../chat/util.ts';
import type { FaultRow } from './fault-row.ts';
import { startHarness, type Harness } from './harness.ts';
import { backAfter, sawSince } from './measure.ts';
import { startPgCluster, type PgCluster } from './pg-cluster.ts';

const TARGET_MS = 5000;
const WARM_MS = Number(process.env.BENCH_FAULT_WARM_MS ?? 5000);
const BETWEEN_MS = Number(process.env.BENCH_FAULT_BETWEEN_MS ?? 5000);

async function step(
  h: Harness,
  name: string,
  inject: () => Promise<string>,
): Promise<Omit<FaultRow, 'lost' | 'duplicates' | 'halfWritten' | 'verdict'> & { serverAlive: boolean }> {
  h.students.resetCounts();
  const start = performance.now();
  const detail = await inject();
  const dbBack = performance.now();
  const backWithinMs = await backAfter(h, dbBack);
  const serverAlive = h.server.ended() === null;
  if (!serverAlive) console.log(`  the server ${h.server.ended()}; its last lines:\n${lastLines(h.server.logs(), 15)}`);
  const why = backWithinMs === null ? h.notBack.at(-1) : undefined;
  console.log(
    `  ${name}: ${detail}; back after ${backWithinMs === null ? `never (${why})` : `${Math.round(backWithinMs)} ms`} ` +
      `(${h.backParts.at(-1)})`,
  );
  return {
    case: `1 PostgreSQL: ${name}`,
    leg: 'pg',
    sawErrors: sawSince(h, start),
    reconnects: h.students.figures().reconnects,
    backWithinMs,
    rssMb: Math.round(h.rssMb()),
    notes: `${detail}; back: ${h.backParts.at(-1)}${why ? `; ${why}` : ''}${serverAlive ? '' : `; the server ${h.server.ended()}`}`,
    serverAlive,
  };
}

async function storedOf(url: string, ids: string[]): Promise<Set<string>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ id: string }>('select id from messages where id = any($1::text[])', [ids]);
    return new Set(rows.map((r) => r.id));
  } finally {
    await c.end();
  }
}

/** Document jobs not done (the daily jobs of schedules and matching wait for tomorrow by design). */
async function jobsLeft(url: string): Promise<string> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ status: string; n: string }>(
      `select status, count(*) as n from jobs where kind = $1 and status not in ('done') group by status order by status`,
      [PROCESS_JOB],
    );
    return rows.map((r) => `${r.status} ${r.n}`).join(', ');
  } finally {
    await c.end();
  }
}

export async function run(): Promise<FaultRow[]> {
  let cluster: PgCluster | undefined;
  let h: Harness | undefined;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sb-fault-pg-data-'));
  try {
    cluster = await startPgCluster();
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('CREATE DATABASE studybuddy');
    await admin.end();
    const url = cluster.url.replace(/\/postgres$/, '/studybuddy');
    h = await startHarness({ DATA_DIR: dataDir, DATABASE_URL: url });
    await sleep(WARM_MS);
    const c = cluster;
    const steps = [
      await step(h, 'restart (pg_ctl restart -m fast)', async () => {
        const { awayMs } = await c.restart();
        return `database away ${Math.round(awayMs)} ms`;
      }),
    ];
    await sleep(BETWEEN_MS);
    steps.push(
      await step(h, 'all backends terminated, twice', async () => {
        const first = await c.terminateBackends();
        // Again as soon as the server has connected anew (its pool and its bus).
        for (const deadline = Date.now() + 5000; Date.now() < deadline; await sleep(20)) {
          if ((await c.backendsOf('studybuddy')) >= 2) break;
        }
        const second = await c.terminateBackends();
        return `${first} then ${second} backends ended`;
      }),
    );
    await sleep(BETWEEN_MS);
    await h.stopLoad();
    const drained = await h.students.drain(30_000);
    const figures = h.students.figures();
    const acked = [...h.students.acked];
    const stored = await storedOf(url, acked);
    const notStored = acked.filter((id) => !stored.has(id)).length;
    // Documents enqueued before and during the faults all finish.
    let docs = await h.documentStates();
    for (const deadline = Date.now() + 60_000; docs.unfinished.length && Date.now() < deadline; await sleep(500)) {
      docs = await h.documentStates();
    }
    const jobs = await jobsLeft(url);
    const lost = notStored + figures.undelivered;
    const halfWritten =
      [
        docs.unfinished.length ? `${docs.unfinished.length} documents never finished` : '',
        docs.failed.length ? `${docs.failed.length} documents failed` : '',
        jobs ? `jobs left: ${jobs}` : '',
        drained ? '' : `${h.students.pending()} messages never acknowledged`,
      ]
        .filter(Boolean)
        .join('; ') || 'nothing';
    const unclear = h.unclearWrites.length;
    return steps.map(({ serverAlive, ...s }) => {
      const met =
        serverAlive &&
        s.backWithinMs !== null &&
        s.backWithinMs <= TARGET_MS &&
        lost === 0 &&
        figures.duplicates === 0 &&
        unclear === 0 &&
        halfWritten === 'nothing';
      return {
        ...s,
        lost,
        duplicates: figures.duplicates,
        halfWritten,
        verdict: met ? ('met' as const) : ('missed' as const),
        notes:
          `${s.notes}; ${figures.acked} of ${figures.sent} messages acknowledged over the whole case, ` +
          `${notStored} of them not stored, ${figures.undelivered} deliveries missing, ${figures.resent} resent by ` +
          `a resync's look-back (kept once by id), ${h!.documents.length} ` +
          `documents uploaded` +
          (unclear ? `; ${unclear} unclear 5xx, first: ${h!.unclearWrites[0]}` : ''),
      };
    });
  } finally {
    await h?.close();
    await cluster?.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
