// Abuse suite (issue 13, acceptance 1): one hostile student against the real server. Every case starts a fresh
// server (a child process, on a copy of one seeded data dir), probes GET /api/health every 250 ms while the case
// runs (from a thread of the bench's own, so the cases' client work never counts as the server's delay), samples the server's RSS every 250 ms (and its kernel peak), and checks afterwards that another student's
// profile, chat message, document, uploaded file, unfinished upload and hot group are as they were.
//   npm run bench abuse                                  # the current tree
//   ABUSE_SERVER_ROOT=/tmp/sb-before npm run bench abuse # another checkout's server (the bench stays this one)
//   ABUSE_CASES=summarize,tus                            # only the cases whose name contains one of these
//   ABUSE_OUT=/work/notes/abuse-after.txt                # also write the table to a file
//   ABUSE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" # node flags for the server (profile a case)
// Targets: slowest health probe < 250 ms and RSS growth < 300 MB in every case; pathological texts answer < 1 s.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { loadLimits } from '../packages/server/src/config.ts';
import { copyTree } from '../packages/server/src/test/copy-tree.ts';
import { CASES, warmUpDocument, type AbuseCase, type CaseOutcome } from './abuse/cases.ts';
import { buildFixture, uploadDocument, victimState, waitForDocument, type Fixture } from './abuse/fixture.ts';
import { call } from './abuse/http.ts';
import { lastLines, sleep, startServer, watch, type Watch } from './abuse/server.ts';

const HEALTH_TARGET_MS = 250;
const RSS_TARGET_MB = 300;
const DEFAULT_CAP_MS = 30_000;

const here = path.resolve(import.meta.dirname, '..');
const root = path.resolve(process.env.ABUSE_SERVER_ROOT ?? here);
const only = (process.env.ABUSE_CASES ?? '')
  .split(',')
  .map((s) => s.trim().toLowerCase())
  .filter(Boolean);
const limits = loadLimits(process.env);

interface Row {
  name: string;
  outcome: CaseOutcome;
  watch: Watch | null;
  intact: string;
  died: string | null;
  pass: boolean;
  why: string[];
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function compare(before: Record<string, string> | null, after: Record<string, string> | null): string {
  if (!before) return '? (not read before)';
  // A part that got no answer (a server still stalled) says nothing about the data.
  if (!after || Object.values(after).some((v) => /^(0 |error)/.test(v))) return '? (no answer after)';
  const changed = Object.keys(before).filter((k) => before[k] !== after[k]);
  return changed.length ? `CHANGED: ${changed.join(', ')}` : 'intact';
}

async function readState(base: string, fx: Fixture, timeoutMs: number) {
  try {
    return await victimState(base, fx, AbortSignal.timeout(timeoutMs));
  } catch {
    return null;
  }
}

async function runCase(c: AbuseCase, template: string, fx: Fixture): Promise<Row> {
  await c.prepare?.();
  const dir = await mkdtemp(path.join(tmpdir(), 'sb-abuse-case-'));
  await copyTree(template, dir);
  await rm(path.join(dir, 'server.log'), { force: true });
  const server = await startServer(root, dir);
  try {
    if (c.warmDocuments) {
      const up = await uploadDocument(server.base, fx.friend, await warmUpDocument(), 'warm.pdf', 'application/pdf');
      if (up.id) await waitForDocument(server.base, fx.friend, up.id, AbortSignal.timeout(60_000));
    }
    if (c.warmNlp) {
      await call(server.base, fx.friend, 'POST', '/api/summarize-text', {
        body: { text: 'Cells make energy in the mitochondria. The midterm covers cell structure and transport.' },
        signal: AbortSignal.timeout(60_000),
      });
    }
    const before = await readState(server.base, fx, 15_000);
    await sleep(500);
    const progress = { status: 'no answer' };
    const cap = c.capMs ?? DEFAULT_CAP_MS;
    const controller = new AbortController();
    const w = watch(server);
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const capped = new Promise<CaseOutcome>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve({ status: `${progress.status} (cap)`, answerMs: performance.now() - started, expectOk: false });
      }, cap);
    });
    const running = c.run({ base: server.base, fx, signal: controller.signal, limits, progress }).catch(
      (err: Error): CaseOutcome => ({
        status: `bench error: ${err.message}`,
        answerMs: performance.now() - started,
        expectOk: false,
      }),
    );
    const outcome = await Promise.race([running, capped]);
    clearTimeout(timer);
    const watched = await w.stop();
    const died = server.ended();
    const after = died ? null : await readState(server.base, fx, 15_000);
    const intact = died ? `? (server ${died})` : compare(before, after);
    const why: string[] = [];
    if (died) why.push(`server ${died}`);
    if (watched.slowestProbeMs >= HEALTH_TARGET_MS || watched.failedProbes) why.push('health');
    const growthMb = (watched.peakKb - watched.baselineKb) / 1024;
    if (growthMb >= RSS_TARGET_MB) why.push('memory');
    if (c.answerTargetMs && outcome.answerMs >= c.answerTargetMs) why.push('answer time');
    if (!outcome.expectOk) why.push('answer');
    if (intact !== 'intact') why.push("others' data");
    if (died)
      outcome.note = [outcome.note, lastLines(server.logs(), 5).replace(/\n/g, ' | ')].filter(Boolean).join(' — ');
    return { name: c.name, outcome, watch: watched, intact, died, pass: why.length === 0, why };
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

function table(rows: Row[]): string {
  const head = ['case', 'answer', 'slowest health', 'RSS growth', 'answer time', "others' data", 'result'];
  const cells = rows.map((r) => [
    r.name,
    r.outcome.status,
    r.watch
      ? `${r.watch.slowestProbeMs.toFixed(0)} ms${r.watch.failedProbes ? ` (${r.watch.failedProbes}/${r.watch.probes} failed)` : ''}`
      : '-',
    r.watch ? `${((r.watch.peakKb - r.watch.baselineKb) / 1024).toFixed(0)} MB` : '-',
    r.outcome.answerMs >= 1000 ? `${(r.outcome.answerMs / 1000).toFixed(1)} s` : `${r.outcome.answerMs.toFixed(0)} ms`,
    r.intact,
    r.pass ? 'PASS' : `FAIL (${r.why.join(', ')})`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) =>
    c
      .map((v, i) => v.padEnd(widths[i]!))
      .join(' | ')
      .trimEnd();
  const notes = rows.map((r, i) => (r.outcome.note ? `  [${i + 1}] ${r.name}: ${r.outcome.note}` : '')).filter(Boolean);
  return [
    line(head),
    widths.map((w) => '-'.repeat(w)).join('-|-'),
    ...cells.map(line),
    ...(notes.length ? ['', 'notes:', ...notes] : []),
  ].join('\n');
}

function describeTree(): string {
  try {
    return execFileSync('git', ['-C', root, 'log', '-1', '--format=%h %s'], { encoding: 'utf8' }).trim();
  } catch {
    return '(not a git tree)';
  }
}

async function main() {
  const cases = CASES.filter((c) => !only.length || only.some((o) => c.name.toLowerCase().includes(o)));
  const header = [
    `abuse bench: server tree ${root} at ${describeTree()}${root === here ? ' (working tree)' : ''}`,
    `${cpus().length} cores (${cpus()[0]?.model}); load average at start ${load()}; ${new Date().toISOString()}`,
    `targets: slowest /api/health probe < ${HEALTH_TARGET_MS} ms and RSS growth < ${RSS_TARGET_MB} MB per case, ` +
      'pathological texts answer < 1 s; each case capped (30 s unless noted) on a fresh server',
  ];
  header.push(
    `quotas and caps the cases expect (this bench tree's defaults): ${Object.entries(limits)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  console.log(header.join('\n'));
  const template = await mkdtemp(path.join(tmpdir(), 'sb-abuse-template-'));
  const rows: Row[] = [];
  try {
    const t0 = performance.now();
    const fx = await buildFixture(root, template);
    console.log(
      `fixture seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s (hot group of the victim: ${fx.hotGroup ? 'opened' : 'refused'})`,
    );
    for (const c of cases) {
      const t = performance.now();
      let row: Row;
      try {
        row = await runCase(c, template, fx);
      } catch (err) {
        row = {
          name: c.name,
          outcome: { status: `bench error: ${(err as Error).message.split('\n')[0]}`, answerMs: 0, expectOk: false },
          watch: null,
          intact: '?',
          died: null,
          pass: false,
          why: ['bench error'],
        };
      }
      rows.push(row);
      console.log(
        `  ${row.pass ? 'PASS' : 'FAIL'} ${c.name}: ${row.outcome.status}; slowest health ${row.watch?.slowestProbeMs.toFixed(0)} ms; ` +
          `RSS +${row.watch ? ((row.watch.peakKb - row.watch.baselineKb) / 1024).toFixed(0) : '?'} MB; ${row.intact} ` +
          `(${((performance.now() - t) / 1000).toFixed(0)} s)`,
      );
    }
  } finally {
    await rm(template, { recursive: true, force: true });
  }
  const passed = rows.filter((r) => r.pass).length;
  const report = [
    ...header,
    '',
    table(rows),
    '',
    `${passed}/${rows.length} cases pass; load average at end ${load()}`,
  ].join('\n');
  console.log(`\n${table(rows)}\n\n${passed}/${rows.length} cases pass; load average at end ${load()}`);
  if (process.env.ABUSE_OUT) await writeFile(process.env.ABUSE_OUT, `${report}\n`);
  // A report by default (the "before" table fails on purpose); ABUSE_STRICT=1 makes a failing case fail the run.
  if (process.env.ABUSE_STRICT === '1' && passed < rows.length) process.exitCode = 1;
}

await main();
