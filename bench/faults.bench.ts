// Faults survived (issue 31): the real server under load — 200 students in live chat at 200 msg/s over their
// sockets, a course document uploaded every 2 s so document processing runs — while a fault is injected, and a
// table per case of what students saw, acknowledged messages lost and duplicated, the time until every socket is
// back and /api/health/ready answers ready, the server's RSS, and whether anything was left half-written.
//   1 PostgreSQL restart and backends terminated twice (a cluster the bench owns)   bench/faults/pg-restart.ts
//   2 S3 store answering 500, then not answering (the bench's own S3 server)         bench/faults/s3-outage.ts
//   3 disk full on DATA_DIR (a small tmpfs; PGlite and local files)                 bench/faults/disk-full.ts
//   4 slow clients (header and body timeouts, per-IP connection cap)                bench/faults/slow-clients.ts
//   5 a second instance dies mid-upload and mid-document                            bench/faults/second-instance.ts
//   npm run bench faults                      (every case)
//   BENCH_FAULT_CASES=1,3 npm run bench faults (some)
// Env: BENCH_FAULT_STUDENTS (200), BENCH_FAULT_RATE (200 msg/s), BENCH_FAULT_WARM_MS (5000), PG_BIN (Debian's newest
// /usr/lib/postgresql/<version>/bin). Case 3 mounts a tmpfs, so it needs root (skipped with a loud line otherwise).
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import type { FaultRow } from './faults/fault-row.ts';

interface Case {
  id: string;
  name: string;
  file: string;
}

const CASES: Case[] = [
  { id: '1', name: 'PostgreSQL restart and backends terminated', file: 'pg-restart.ts' },
  { id: '2', name: 'S3 store errors and hangs', file: 's3-outage.ts' },
  { id: '3', name: 'disk full on DATA_DIR', file: 'disk-full.ts' },
  { id: '4', name: 'slow clients', file: 'slow-clients.ts' },
  { id: '5', name: 'a second instance dies', file: 'second-instance.ts' },
];

const chosen = (process.env.BENCH_FAULT_CASES ?? CASES.map((c) => c.id).join(',')).split(',');
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const COLUMNS: [string, number, (r: FaultRow) => string][] = [
  ['leg', 6, (r) => r.leg],
  ['lost', 4, (r) => String(r.lost)],
  ['dup', 3, (r) => String(r.duplicates)],
  ['reconn', 6, (r) => String(r.reconnects)],
  ['back ms', 7, (r) => (r.backWithinMs === null ? 'never' : String(Math.round(r.backWithinMs)))],
  ['RSS MB', 6, (r) => String(Math.round(r.rssMb))],
  ['verdict', 7, (r) => r.verdict],
];

function printTable(c: Case, rows: FaultRow[]) {
  console.log(`\n${c.id}. ${c.name} (load average ${load()})`);
  for (const r of rows) {
    console.log(`  ${r.case}`);
    console.log(`    ${COLUMNS.map(([h, w]) => h.padStart(w)).join('  ')}`);
    console.log(`    ${COLUMNS.map(([, w, f]) => f(r).padStart(w)).join('  ')}`);
    console.log(`    students saw: ${r.sawErrors}`);
    console.log(`    half-written: ${r.halfWritten}`);
    if (r.notes) console.log(`    notes: ${r.notes}`);
  }
}

console.log(`fault bench: ${availableParallelism()} cores, load average ${load()}`);
const all: { c: Case; rows: FaultRow[] }[] = [];
let missed = 0;
for (const c of CASES.filter((x) => chosen.includes(x.id))) {
  const file = path.join(import.meta.dirname, 'faults', c.file);
  if (!existsSync(file)) {
    console.log(`\n!!!!!! case ${c.id} (${c.name}): bench/faults/${c.file} does not exist yet — not run !!!!!!`);
    missed++;
    continue;
  }
  console.log(`\nrunning case ${c.id}: ${c.name}… (load average ${load()})`);
  try {
    const mod = (await import(file)) as { run(): Promise<FaultRow[]> };
    const rows = await mod.run();
    printTable(c, rows);
    all.push({ c, rows });
    missed += rows.filter((r) => r.verdict !== 'met').length;
  } catch (err) {
    missed++;
    console.error(`\n!!!!!! case ${c.id} FAILED: ${err instanceof Error ? err.stack : String(err)}\n`);
  }
}

console.log(`\n━━ all cases (load average ${load()}) ━━`);
for (const { c, rows } of all) printTable(c, rows);
console.log(
  `\n${missed ? `${missed} row(s) MISSED their targets` : 'every target met'}; back ms: from the fault's end until ` +
    'every socket is live again, every message written before is acknowledged, and /api/health/ready answers 200.',
);
process.exitCode = missed ? 1 : 0;
