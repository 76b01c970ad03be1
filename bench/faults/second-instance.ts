// Case 5: a second instance dies (SIGKILL) in the middle of a student's resumable upload and of a document's
// processing, on three instances sharing one PostgreSQL database and one S3 bucket, while the 200 students of the
// load chat on the first instance. Targets: the upload continues on another instance from where the bucket says it
// stands and is stored once, byte for byte, with nothing left staged; the document's job is taken over once (one
// more attempt, by one instance, from the page it had reached) and ends done; the students lose and double nothing;
// back (upload resumed, job taken over) within the leases: the upload lock's 10 s, the job's 30 s, plus 10 s.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import pg from 'pg';
import { scannedPdf } from '../../packages/server/src/features/documents/test/fixtures.ts';
import { createS3Storage } from '../../packages/server/src/platform/storage/s3-storage.ts';
import { lastLines, spawnServer, type SpawnedServer } from '../../packages/server/src/test/spawn-server.ts';
import { streamingPatch } from '../../packages/server/src/test/streaming-patch.ts';
import { logIn } from '../abuse/http.ts';
import { onCleanup, root, sleep, spawnLogged, stopChild, withDatabase } from '../chat/util.ts';
import type { FaultRow } from './fault-row.ts';
import { startHarness, type Harness } from './harness.ts';
import { backAfter, sawSince } from './measure.ts';

const WARM_MS = Number(process.env.BENCH_FAULT_WARM_MS ?? 5000);
const MB = 1024 * 1024;
const UPLOAD_BYTES = 20 * MB + 4321;
const FIRST_CHUNK = 6 * MB;
/** The upload lock's lease and the job's (their defaults), and what may come on top of them. */
const UPLOAD_LEASE_MS = 10_000;
const JOB_LEASE_MS = 30_000;
const DOCUMENT_PAGES = 12;
const SLACK_MS = 10_000;
const TUS = { 'Tus-Resumable': '1.0.0' };
const md5 = (data: Buffer) => createHash('md5').update(data).digest('base64');
const meta = (m: Record<string, string>) =>
  Object.entries(m)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

interface BenchS3 {
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * The repository's S3 store (platform/storage/s3rver-main.ts: s3rver with the ListParts and AbortMultipartUpload that
 * resumable uploads need) in a plain-Node child, bundled by esbuild first (tsx's loader breaks one of s3rver's
 * dependencies), one empty bucket in a temporary folder.
 */
async function startS3(bucket: string): Promise<BenchS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 'sb-fault-s3-second-'));
  const bundle = path.join(root, 'node_modules/.cache/studybuddy-bench/s3rver-main.mjs');
  await build({
    entryPoints: [path.join(root, 'packages/server/src/platform/storage/s3rver-main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: bundle,
    logLevel: 'error',
  });
  const { child, logs } = spawnLogged([bundle], {
    ...process.env,
    S3_ADDRESS: '127.0.0.1',
    S3_PORT: '0',
    S3_DIRECTORY: directory,
    S3_BUCKETS: bucket,
  });
  const close = onCleanup(async () => {
    await stopChild(child);
    await rm(directory, { recursive: true, force: true });
  });
  let port: number | undefined;
  for (const deadline = Date.now() + 30_000; port === undefined; await sleep(20)) {
    port = Number(/127\.0\.0\.1:(\d+)/.exec(logs.join(''))?.[1]) || undefined;
    if (port === undefined && (Date.now() > deadline || child.exitCode !== null)) {
      await close();
      throw new Error(`the S3 server did not start: ${logs.join('')}`);
    }
  }
  return {
    env: {
      STORAGE: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_REGION: 'us-east-1',
    },
    close,
  };
}

interface JobRow {
  id: string;
  status: string;
  attempts: number;
  locked_by: string | null;
}

async function run5(url: string): Promise<FaultRow> {
  const s3 = await startS3('sb-fault-second');
  const dirs = await Promise.all([0, 1, 2].map((i) => mkdtemp(path.join(tmpdir(), `sb-fault-second-${i}-`))));
  const db = new pg.Client({ connectionString: url });
  let h: Harness | undefined;
  const others: SpawnedServer[] = [];
  try {
    const env = { DATABASE_URL: url, ...s3.env, SECRET_KEY: randomBytes(32).toString('hex') };
    // The first instance carries the load; the second will die; the third takes over with the first.
    h = await startHarness({ DATA_DIR: dirs[0]!, ...env });
    for (const dir of dirs.slice(1))
      others.push(await spawnServer({ dataDir: dir, env: { ...env, LOG_LEVEL: 'warn' } }));
    const [dying, third] = others as [SpawnedServer, SpawnedServer];
    await db.connect();
    const login = await logIn(h.base, 'faults-docs@g.ucla.edu', 'password123', '127.0.0.1');
    const cookie = login.cookie;
    const on = (server: { base: string }, pathname: string, init: RequestInit = {}) =>
      fetch(`${server.base}${pathname}`, {
        ...init,
        headers: { cookie, origin: server.base, ...(init.headers as Record<string, string>) },
      });
    await sleep(WARM_MS);

    // A document the dying instance is processing: uploaded until one of them is claimed by it.
    // Long enough that the dying instance is still reading it when the upload below reaches the kill (a quiet
    // machine read four pages before then, and nothing was left to take over).
    const pdf = await scannedPdf(
      Array.from({ length: DOCUMENT_PAGES }, (_, i) => [`Page ${i + 1} says lesson ${i + 1} is about cells.`]),
    );
    const jobOf = async (documentId: string) =>
      (
        await db.query<JobRow>(`select id, status, attempts, locked_by from jobs where dedupe_key = $1`, [
          `document:${documentId}`,
        ])
      ).rows[0];
    let documentId: string | undefined;
    for (let tries = 0; tries < 8 && !documentId; tries++) {
      const form = new FormData();
      form.append('courseId', 'seed-0');
      form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), `scan-${tries}.pdf`);
      const res = await on(dying, '/api/upload-document', { method: 'POST', body: form });
      const id = ((await res.json()) as { document?: { id: string } }).document?.id;
      if (!id) throw new Error(`document upload answered ${res.status}`);
      for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(100)) {
        const job = await jobOf(id);
        if (job?.status === 'running' && job.locked_by) {
          if (Number(job.locked_by.split(':')[1]) === dying.pid) documentId = id;
          break;
        }
      }
    }
    if (!documentId) throw new Error('none of 8 documents was claimed by the second instance');
    const docOf = async (server: { base: string }) =>
      (await (await on(server, `/api/documents/${documentId}`)).json()) as {
        status: string;
        progress?: { page: number } | null;
      };
    for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(50)) {
      const d = await docOf(third);
      if (d.status === 'ocr' && (d.progress?.page ?? 0) >= 2) break;
    }

    // The upload: one chunk stored through the dying instance, the next on its way to it.
    const data = randomBytes(UPLOAD_BYTES);
    const made = await on(dying, '/api/resumable', {
      method: 'POST',
      headers: {
        ...TUS,
        'Upload-Length': String(data.length),
        'Upload-Metadata': meta({ target: 'course-document', courseId: 'seed-0', filename: 'thesis.pdf' }),
      },
    });
    const location = made.headers.get('location');
    if (made.status !== 201 || !location) {
      throw new Error(`tus creation answered ${made.status} ${await made.text()}: ${lastLines(dying.logs(), 8)}`);
    }
    const uploadId = location.split('/').pop()!;
    const patch = (server: { base: string }, offset: number, body: Buffer) =>
      on(server, location, {
        method: 'PATCH',
        headers: { ...TUS, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
        body: new Uint8Array(body),
      });
    const firstPatch = await patch(dying, 0, data.subarray(0, FIRST_CHUNK));
    if (firstPatch.status !== 204) throw new Error(`the first PATCH answered ${firstPatch.status}`);
    let sent = 0;
    const cut = streamingPatch(
      `${dying.base}${location}`,
      cookie,
      FIRST_CHUNK,
      data.subarray(FIRST_CHUNK),
      (n) => {
        sent = n;
      },
      100,
    );
    while (sent < 10 * MB) await sleep(20);
    const docPageAtKill = (await docOf(third)).progress?.page ?? 0;
    const jobAtKill = await jobOf(documentId);

    const killedAt = performance.now();
    // Watched from the kill on, beside the resume and the takeover (which take longer than its 30 s window).
    const backing = backAfter(h, killedAt);
    await dying.kill();
    const cutStatus = await cut;

    // The student's client asks another instance where to go on and continues there.
    const statuses: number[] = [];
    const head = await on(third, location, { method: 'HEAD', headers: TUS });
    const resumedMs = performance.now() - killedAt;
    statuses.push(head.status);
    let offset = Number(head.headers.get('upload-offset') ?? -1);
    const resumedAt = offset;
    let last: Response | undefined;
    let retries = 0;
    for (let i = 0; head.status === 200 && offset < data.length && i < 50; i++) {
      const target = i % 2 ? h.server : third;
      const answer = await patch(target, offset, data.subarray(offset, offset + 4 * MB)).catch(() => null);
      statuses.push(answer?.status ?? 0);
      if (answer && (answer.status === 204 || answer.status === 200)) {
        last = answer;
        offset = Number(answer.headers.get('upload-offset'));
        continue;
      }
      // A broken connection or a clear 503: as a tus client, ask where it stands and go on (a few times).
      if (retries++ >= 5 || (answer && answer.status !== 503)) break;
      await sleep(500);
      const again = await on(target, location, { method: 'HEAD', headers: TUS }).catch(() => null);
      offset = Number(again?.headers.get('upload-offset') ?? offset);
    }
    const storedFile =
      last?.status === 200
        ? ((await last.json()) as { file: { md5Hash: string; url: string; path: string } }).file
        : null;
    const completedMs = performance.now() - killedAt;
    let downloadedOk = false;
    if (storedFile) {
      const got = await on(h.server, storedFile.url);
      downloadedOk = got.status === 200 && md5(Buffer.from(await got.arrayBuffer())) === md5(data);
    }

    // The job: taken over once its lease runs out, then done.
    let takenOverMs: number | null = null;
    let job = await jobOf(documentId);
    for (const deadline = Date.now() + JOB_LEASE_MS + 120_000; Date.now() < deadline; await sleep(100)) {
      job = await jobOf(documentId);
      if (takenOverMs === null && job?.locked_by && Number(job.locked_by.split(':')[1]) !== dying.pid) {
        takenOverMs = performance.now() - killedAt;
      }
      if (job?.status === 'done' || job?.status === 'failed') break;
    }
    const doc = await docOf(third);
    const pages = (
      await db.query<{ page: number }>('select page from document_pages where document_id = $1 order by page', [
        documentId,
      ])
    ).rows.map((r) => r.page);

    const back = await backing;
    const rssMb = h.rssMb();
    const saw = sawSince(h, killedAt);
    await h.stopLoad();
    const drained = await h.students.drain(30_000);
    const figures = h.students.figures();
    const staged = (
      await createS3Storage({
        endpoint: s3.env.S3_ENDPOINT!,
        bucket: s3.env.S3_BUCKET!,
        accessKeyId: s3.env.S3_ACCESS_KEY_ID!,
        secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY!,
        region: s3.env.S3_REGION!,
      }).list('resumable')
    ).filter((k) => k.includes(uploadId));
    const uploadRow = (
      await db.query<{ state: string }>('select state from resumable_uploads where id = $1', [uploadId])
    ).rows[0];
    const storedRows = storedFile
      ? Number(
          (await db.query<{ n: string }>('select count(*) as n from stored_files where path = $1', [storedFile.path]))
            .rows[0]?.n ?? 0,
        )
      : 0;

    const uploadLost = downloadedOk ? 0 : 1;
    const lost = figures.undelivered + (drained ? 0 : h.students.pending()) + uploadLost;
    const pageDuplicates = pages.length - new Set(pages).size;
    const duplicates = figures.duplicates + pageDuplicates + Math.max(0, storedRows - 1);
    const takeovers = (job?.attempts ?? 0) - 1;
    const backWithinMs = takenOverMs === null ? null : Math.max(resumedMs, takenOverMs, back ?? Infinity);
    const why: string[] = [];
    if (!downloadedOk) why.push('upload not stored byte for byte');
    if (resumedMs > UPLOAD_LEASE_MS + SLACK_MS) why.push('upload resumed late');
    if (jobAtKill?.status !== 'running') why.push(`the bench's document was ${jobAtKill?.status} at the kill`);
    if (takenOverMs === null || takenOverMs > JOB_LEASE_MS + SLACK_MS) why.push('job taken over late or never');
    if (job?.status !== 'done' || doc.status !== 'done') why.push(`document ${doc.status}, job ${job?.status}`);
    if (takeovers !== 1) why.push(`${takeovers} takeovers`);
    const allPages = Array.from({ length: DOCUMENT_PAGES }, (_, i) => i + 1).join();
    if (pages.join() !== allPages) why.push(`pages ${pages.join()}`);
    if (lost || duplicates) why.push('lost or doubled');
    if (staged.length || uploadRow?.state !== 'stored') why.push('upload left staged');
    if (back === null) why.push('students not back');
    return {
      case: 'a second instance (of three, PostgreSQL + S3) killed mid-upload and mid-document',
      leg: 'pg',
      sawErrors: `${saw}; the upload's PATCH in flight ${cutStatus === 0 ? 'broke' : cutStatus}, then ${statuses.join(' ')}`,
      reconnects: figures.reconnects,
      lost,
      duplicates,
      backWithinMs,
      rssMb,
      halfWritten:
        [
          staged.length ? `${staged.length} staged objects of the upload in the bucket` : '',
          uploadRow?.state !== 'stored' ? `upload row ${uploadRow?.state ?? 'gone'}` : '',
          job?.status !== 'done' ? `job ${job?.status}` : '',
        ]
          .filter(Boolean)
          .join('; ') || 'nothing',
      verdict: why.length ? 'missed' : 'met',
      notes:
        `killed with ${(sent / MB).toFixed(0)} MB of the second chunk sent (${(FIRST_CHUNK / MB).toFixed(0)} MB ` +
        `stored before) and OCR on page ${docPageAtKill}; the upload resumed at ${(resumedAt / MB).toFixed(1)} MB ` +
        `${(resumedMs / 1000).toFixed(1)} s after the kill (the dead lock's lease is ${UPLOAD_LEASE_MS / 1000} s), ` +
        `stored ${(completedMs / 1000).toFixed(1)} s after it (${storedRows} stored file row); the job was taken ` +
        `over ${takenOverMs === null ? 'never' : `${(takenOverMs / 1000).toFixed(1)} s after the kill`} (lease ` +
        `${JOB_LEASE_MS / 1000} s), attempts ${job?.attempts}, pages ${pages.join(',')}` +
        (why.length ? `; MISSED: ${why.join(', ')}` : ''),
    };
  } finally {
    await db.end().catch(() => undefined);
    await Promise.all(others.map((s) => s.kill()));
    await h?.close();
    await s3.close();
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  }
}

export async function run(): Promise<FaultRow[]> {
  return [await withDatabase('sb_fault_second', (url) => run5(url))];
}
