// Case 2: the S3 store (the bench's own s3rver, behind a proxy that fails on demand) answers 500 for a while, then
// takes requests and never answers. Uploads must fail with a clear message and leave nothing staged or counted,
// downloads answer 503, no request waits longer than the store's timeouts (S3_TIMEOUTS: about 11 s), and the
// server uses the store again without a restart (back: within 30 s of the store). On PostgreSQL (the shared server, a database of its own).
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { S3Config } from '../../packages/server/src/config.ts';
import { createS3Storage, S3_TIMEOUTS } from '../../packages/server/src/platform/storage/s3-storage.ts';
import {
  startFaultyProxy,
  type FaultyProxy,
  type ProxyMode,
} from '../../packages/server/src/test/faulty-http-proxy.ts';
import { onCleanup, root, sleep, spawnLogged, stopChild, withDatabase } from '../chat/util.ts';
import type { FaultRow } from './fault-row.ts';
import { FileLoad } from './file-load.ts';
import { startHarness, tallySamples, type Harness, type Sample } from './harness.ts';
import { backAfter, sawSince } from './measure.ts';

const FAULT_MS = Number(process.env.BENCH_FAULT_S3_MS ?? 15_000);
const WARM_MS = Number(process.env.BENCH_FAULT_WARM_MS ?? 5000);
/** The longest any request may take while the store fails: the store's total timeout, twice (a head, then a put). */
const LONGEST_MS = 2 * S3_TIMEOUTS.totalMs;

interface BenchS3 {
  config: S3Config;
  env: Record<string, string>;
  close(): Promise<void>;
}

/** s3rver in a child process (bench/faults/s3-server.mjs) with one empty bucket, in a temporary folder. */
async function startBenchS3(bucket: string): Promise<BenchS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 'sb-fault-s3rver-'));
  const { child, logs } = spawnLogged([path.join(root, 'bench/faults/s3-server.mjs'), directory, bucket], process.env);
  const stop = onCleanup(async () => {
    await stopChild(child);
    await rm(directory, { recursive: true, force: true });
  });
  let port: number | undefined;
  for (const deadline = Date.now() + 30_000; port === undefined; await sleep(20)) {
    port = Number(/port (\d+)/.exec(logs.join(''))?.[1]) || undefined;
    if (port === undefined && (Date.now() > deadline || child.exitCode !== null)) {
      await stop();
      throw new Error(`the S3 server did not start: ${logs.join('')}`);
    }
  }
  const config: S3Config = {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    region: 'us-east-1',
  };
  return {
    config,
    env: {
      STORAGE: 's3',
      S3_ENDPOINT: config.endpoint!,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: config.accessKeyId,
      S3_SECRET_ACCESS_KEY: config.secretAccessKey,
      S3_REGION: config.region,
    },
    close: stop,
  };
}

async function filesUnder(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).length;
}

/** What was left half-written: staged files on disk, counted files missing from the bucket. */
async function leftovers(dataDir: string, url: string, s3: BenchS3): Promise<string> {
  const staged = (await filesUnder(path.join(dataDir, 'tmp'))) + (await filesUnder(path.join(dataDir, 'uploads')));
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const { rows } = await db.query<{ path: string }>('select path from stored_files').finally(() => db.end());
  const bucket = createS3Storage(s3.config);
  let missing = 0;
  for (const r of rows) if (!(await bucket.head(r.path))) missing++;
  const staging = (await bucket.list('resumable')).length;
  return (
    [
      staged ? `${staged} staged files on disk` : '',
      missing ? `${missing} counted files missing from the bucket` : '',
      staging ? `${staging} staged objects in the bucket` : '',
    ]
      .filter(Boolean)
      .join('; ') || 'nothing'
  );
}

export async function run(): Promise<FaultRow[]> {
  const rows: FaultRow[] = [];
  await withDatabase('sb_bench_faults_s3', async (url) => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sb-fault-s3-'));
    let s3: BenchS3 | undefined;
    let proxy: FaultyProxy | undefined;
    let h: Harness | undefined;
    let files: FileLoad | undefined;
    try {
      s3 = await startBenchS3('studybuddy-faults');
      proxy = await startFaultyProxy(s3.config.endpoint!);
      h = await startHarness({ DATA_DIR: dataDir, DATABASE_URL: url, ...s3.env, S3_ENDPOINT: proxy.url });
      files = new FileLoad(h.base, h.cookie(1));
      await files.start();
      await sleep(WARM_MS);
      const p = proxy;
      const harness = h;
      const load = files;
      const step = async (mode: ProxyMode, name: string) => {
        harness.students.resetCounts();
        const start = performance.now();
        p.mode = mode;
        await sleep(FAULT_MS);
        p.mode = 'pass';
        const end = performance.now();
        // Back: the usual (ready, sockets, chat writes), and a picture stored and read again after the fault.
        let back = await backAfter(harness, end);
        for (const deadline = end + 30_000; performance.now() < deadline; await sleep(20)) {
          const up = load.uploads.some((s) => s.at >= end && s.status === 201);
          const down = load.downloads.some((s) => s.at >= end && s.status === 200);
          if (up && down) break;
        }
        const firstOk = (xs: Sample[], status: number) => xs.find((s) => s.at >= end && s.status === status);
        const upOk = firstOk(load.uploads, 201);
        const downOk = firstOk(load.downloads, 200);
        if (back !== null && upOk && downOk) {
          back = Math.max(back, upOk.at + upOk.ms - end, downOk.at + downOk.ms - end);
        } else back = null;
        const during = (xs: Sample[]) => xs.filter((s) => s.at >= start && s.at < end + 1000);
        const slowest = Math.max(
          0,
          ...during(load.uploads).map((s) => s.ms),
          ...during(load.downloads).map((s) => s.ms),
        );
        const saw = [
          ...tallySamples(
            during(load.uploads).filter((s) => s.status !== 201),
            'upload',
          ),
          ...tallySamples(
            during(load.downloads).filter((s) => s.status !== 200),
            'download',
          ),
          ...[...harness.uploadStatuses].map(([status, n]) => `document upload ${status}×${n}`),
          sawSince(harness, start),
        ];
        harness.uploadStatuses.clear();
        const bad = [...during(load.uploads), ...during(load.downloads)].filter(
          (s) => s.status !== 200 && s.status !== 201 && s.status !== 503,
        ).length;
        console.log(`  ${name}: back after ${back === null ? 'never' : `${Math.round(back)} ms`}`);
        return {
          case: `2 S3 store: ${name}`,
          leg: 'pg' as const,
          sawErrors: saw.join(', '),
          reconnects: harness.students.figures().reconnects,
          backWithinMs: back,
          rssMb: Math.round(harness.rssMb()),
          slowest,
          bad,
          notes:
            `store ${mode === 'error' ? 'answered 500 to' : 'took and never answered'} ${p.counts[mode]} requests ` +
            `in ${FAULT_MS / 1000} s; slowest upload or download ${Math.round(slowest)} ms (at most ${LONGEST_MS})`,
        };
      };
      const steps = [await step('error', 'answers 500'), await step('hang', 'hangs (never answers)')];
      await h.stopLoad();
      await files.stop();
      const drained = await h.students.drain(30_000);
      const figures = h.students.figures();
      let docs = await h.documentStates();
      for (const deadline = Date.now() + 90_000; docs.unfinished.length && Date.now() < deadline; await sleep(500)) {
        docs = await h.documentStates();
      }
      const halfWritten = [
        await leftovers(dataDir, url, s3),
        docs.unfinished.length ? `${docs.unfinished.length} documents never finished` : '',
        docs.failed.length ? `${docs.failed.length} documents failed` : '',
        drained ? '' : `${h.students.pending()} messages never acknowledged`,
      ]
        .filter((x) => x && x !== 'nothing')
        .join('; ');
      for (const { slowest, bad, ...s } of steps) {
        const met =
          h.server.ended() === null &&
          s.backWithinMs !== null &&
          slowest <= LONGEST_MS &&
          bad === 0 &&
          figures.undelivered === 0 &&
          figures.duplicates === 0 &&
          !halfWritten;
        rows.push({
          ...s,
          lost: figures.undelivered,
          duplicates: figures.duplicates,
          halfWritten: halfWritten || 'nothing',
          verdict: met ? 'met' : 'missed',
          notes:
            `${s.notes}; ${bad} answers other than 200/201/503; ${files.stored.length} pictures stored, ` +
            `${h.documents.length} documents uploaded` +
            (h.notBack.length ? `; ${h.notBack.join('; ')}` : '') +
            (h.server.ended() ? `; the server ${h.server.ended()}` : ''),
        });
      }
    } finally {
      await files?.stop();
      await h?.close();
      await proxy?.close();
      await s3?.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
  return rows;
}
