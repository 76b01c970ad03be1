// Case 3: the data disk fills up. DATA_DIR is a small tmpfs the bench mounts (root only) holding PGlite's database
// and the local files; under load a filler file takes every free byte for a while, then goes. New writes must be
// refused with a clear error (507 disk_full), what is stored stays readable, the server comes back once there is
// room (within 30 s), and nothing is corrupt after: PGlite opens, every acknowledged message is there, every stored file matches
// its hash.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm, rmdir, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../packages/server/src/db/connect.ts';
import { createFsStorage } from '../../packages/server/src/platform/storage/fs-storage.ts';
import { onCleanup, sleep } from '../chat/util.ts';
import type { FaultRow } from './fault-row.ts';
import { FileLoad } from './file-load.ts';
import { startHarness, tallySamples, type Harness, type Sample } from './harness.ts';
import { backAfter, sawSince } from './measure.ts';

const DISK_MB = Number(process.env.BENCH_FAULT_DISK_MB ?? 256);
const FULL_MS = Number(process.env.BENCH_FAULT_FULL_MS ?? 10_000);
const WARM_MS = Number(process.env.BENCH_FAULT_WARM_MS ?? 5000);

/** Mounts a tmpfs of `mb` MB; undone on exit. */
async function mountSmallDisk(mb: number): Promise<{ dir: string; unmount: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sb-fault-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${mb}m,mode=0755`, 'tmpfs', dir]);
  const unmount = onCleanup(async () => {
    try {
      execFileSync('umount', ['-l', dir]);
    } catch {
      // Not mounted.
    }
    await rmdir(dir).catch(() => undefined);
  });
  return { dir, unmount };
}

/** Writes zeros into `file` until the disk refuses (ENOSPC); the bytes written. */
async function fill(file: string): Promise<number> {
  const handle = await open(file, 'w');
  const chunk = Buffer.alloc(1024 * 1024);
  let written = 0;
  try {
    for (;;) {
      try {
        written += (await handle.write(chunk)).bytesWritten;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
        // Down to the last block.
        for (let size = chunk.length / 2; size >= 512; size /= 2) {
          try {
            written += (await handle.write(chunk.subarray(0, size))).bytesWritten;
            size *= 2;
          } catch {
            // Smaller next.
          }
        }
        return written;
      }
    }
  } finally {
    await handle.close().catch(() => undefined);
  }
}

const md5 = (file: string) =>
  new Promise<string>((resolve, reject) => {
    const hash = createHash('md5');
    createReadStream(file)
      .on('data', (d) => hash.update(d))
      .on('end', () => resolve(hash.digest('base64')))
      .on('error', reject);
  });

/** After the server stopped: PGlite opens and holds every acknowledged message; every stored file matches its hash. */
async function integrity(dataDir: string, acked: string[]): Promise<string> {
  const problems: string[] = [];
  let database;
  try {
    database = await openDatabase({ dataDir });
  } catch (err) {
    return `PGlite does not open: ${err instanceof Error ? err.message : String(err)}`;
  }
  try {
    const found = new Set<string>();
    for (let i = 0; i < acked.length; i += 1000) {
      const ids = acked.slice(i, i + 1000);
      const result = (await database.db.execute(
        `select id from messages where id in (${ids.map((id) => `'${id}'`).join(',')})`,
      )) as unknown as { rows: { id: string }[] };
      for (const r of result.rows) found.add(r.id);
    }
    const missing = acked.length - found.size;
    if (missing) problems.push(`${missing} acknowledged messages missing from PGlite`);
    const paths = (await database.db.execute('select path from stored_files')) as unknown as {
      rows: { path: string }[];
    };
    const storage = createFsStorage(path.join(dataDir, 'files'));
    let bad = 0;
    for (const { path: p } of paths.rows) {
      const meta = await storage.head(p);
      const local = storage.localFile?.(p);
      if (!meta || !local || (await md5(local).catch(() => '')) !== meta.md5Hash) bad++;
    }
    if (bad) problems.push(`${bad} of ${paths.rows.length} stored files missing or not matching their hash`);
  } finally {
    await database.close();
  }
  return problems.join('; ') || 'nothing';
}

export async function run(): Promise<FaultRow[]> {
  if (process.getuid?.() !== 0) {
    console.log('\n!!!!!! case 3 SKIPPED: mounting a small tmpfs needs root !!!!!!\n');
    return [];
  }
  const disk = await mountSmallDisk(DISK_MB);
  let h: Harness | undefined;
  let files: FileLoad | undefined;
  const filler = path.join(disk.dir, 'filler');
  try {
    h = await startHarness({ DATA_DIR: disk.dir, DATABASE_URL: '' });
    files = new FileLoad(h.base, h.cookie(1));
    await files.start();
    await sleep(WARM_MS);
    const harness = h;
    const load = files;
    harness.students.resetCounts();
    const start = performance.now();
    const free = await statfs(disk.dir);
    const filled = await fill(filler);
    console.log(
      `  the disk: ${Math.round((free.bavail * free.bsize) / 1024 / 1024)} MB free, ${Math.round(filled / 1024 / 1024)} MB written to fill it`,
    );
    await sleep(FULL_MS);
    // What students saw while it was full: refusals, and reads that still worked.
    const whileFull = (xs: Sample[]) => xs.filter((s) => s.at >= start);
    const downloadsOk = whileFull(load.downloads).filter((s) => s.status === 200).length;
    await rm(filler, { force: true });
    const end = performance.now();
    let back = await backAfter(harness, end);
    for (const deadline = end + 30_000; performance.now() < deadline; await sleep(20)) {
      if (load.uploads.some((s) => s.at >= end && s.status === 201)) break;
    }
    const upOk = load.uploads.find((s) => s.at >= end && s.status === 201);
    back = back !== null && upOk ? Math.max(back, upOk.at + upOk.ms - end) : null;
    console.log(`  full for ${FULL_MS / 1000} s: back after ${back === null ? 'never' : `${Math.round(back)} ms`}`);
    const saw = [
      ...tallySamples(
        whileFull(load.uploads).filter((s) => s.status !== 201),
        'upload',
      ),
      ...tallySamples(
        whileFull(load.downloads).filter((s) => s.status !== 200),
        'download',
      ),
      ...[...harness.uploadStatuses].map(([status, n]) => `document upload ${status}×${n}`),
      sawSince(harness, start),
    ];
    const bad = [...whileFull(load.uploads), ...whileFull(load.downloads)].filter(
      (s) => ![200, 201, 507].includes(s.status),
    ).length;
    const unclear = harness.unclearWrites.length;
    await harness.stopLoad();
    await load.stop();
    const drained = await harness.students.drain(30_000);
    const figures = harness.students.figures();
    let docs = await harness.documentStates();
    for (const deadline = Date.now() + 60_000; docs.unfinished.length && Date.now() < deadline; await sleep(500)) {
      docs = await harness.documentStates();
    }
    const rssMb = Math.round(harness.rssMb());
    if (process.env.BENCH_FAULT_DEBUG) {
      const line = (xs: Sample[]) =>
        xs.map((x) => `${Math.round((x.at - start) / 100) / 10}s:${x.status}/${Math.round(x.ms)}`).join(' ');
      console.log(`  ready: ${line(harness.ready.after(start - 2000))}`);
      console.log(`  writes: ${line(harness.writes.after(start - 2000))}`);
      console.log(`  server log: ${harness.server.logs().slice(-3000)}`);
    }
    const alive = harness.server.ended() === null;
    await harness.close();
    const after = await integrity(disk.dir, [...harness.students.acked]);
    const halfWritten = [
      after === 'nothing' ? '' : after,
      docs.unfinished.length ? `${docs.unfinished.length} documents never finished` : '',
      docs.failed.length ? `${docs.failed.length} documents failed` : '',
      drained ? '' : `${harness.students.pending()} messages never acknowledged`,
    ]
      .filter(Boolean)
      .join('; ');
    const met =
      alive &&
      back !== null &&
      downloadsOk > 0 &&
      bad === 0 &&
      unclear === 0 &&
      figures.undelivered === 0 &&
      figures.duplicates === 0 &&
      !halfWritten;
    return [
      {
        case: `3 disk full on DATA_DIR (${DISK_MB} MB tmpfs, full for ${FULL_MS / 1000} s)`,
        leg: 'pglite',
        sawErrors: saw.join(', '),
        reconnects: figures.reconnects,
        lost: figures.undelivered,
        duplicates: figures.duplicates,
        backWithinMs: back,
        rssMb,
        halfWritten: halfWritten || 'nothing',
        verdict: met ? 'met' : 'missed',
        notes:
          `${downloadsOk} downloads of a stored picture answered while full; ${bad} answers other than ` +
          `200/201/507; ${figures.acked} of ${figures.sent} messages acknowledged; ${load.stored.length} pictures ` +
          `stored, ${harness.documents.length} documents uploaded` +
          (unclear ? `; ${unclear} unclear 5xx, first: ${harness.unclearWrites[0]}` : '') +
          (harness.notBack.length ? `; ${harness.notBack.join('; ')}` : '') +
          (alive ? '' : `; the server ${harness.server.ended()}`),
      },
    ];
  } finally {
    await files?.stop();
    await h?.close();
    await rm(filler, { force: true });
    await disk.unmount();
  }
}
