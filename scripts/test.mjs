// `npm test`: lint, typecheck, unit (shared, web), server integration (PGlite), the PostgreSQL leg, e2e in Chromium.
// `npm test -- <stage>…` runs only the named stages (see STAGES below), e.g. `npm test -- e2e`.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { loadavg } from 'node:os';
import { ensureDependencies, buildWeb, must, run } from './lib.mjs';

const CI = process.env.CI === 'true' || process.env.CI === '1';
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const results = 'node_modules/.test-results';
const totals = { passed: 0, failed: 0, skipped: 0 };

/**
 * Journeys run in Chromium's headless shell (Debian's chromium-headless-shell: less CPU per journey), the push journey
 * in the full browser; as root, what is missing is installed. Without the shell every journey runs in the browser.
 */
function ensureChromium() {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const shell = process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell';
  if (existsSync(path) && existsSync(shell)) return;
  if (process.getuid?.() === 0) {
    console.log('Installing Chromium (apt-get install chromium chromium-headless-shell)...');
    run('apt-get', ['update', '-qq']);
    must('apt-get', ['install', '-y', '-qq', 'chromium', 'chromium-headless-shell'], {
      env: { DEBIAN_FRONTEND: 'noninteractive' },
    });
  } else if (!existsSync(path)) {
    console.error(`Chromium is missing at ${path}: install it (apt-get install chromium) or set CHROMIUM_PATH.`);
    process.exit(1);
  }
}

function postgresAnswers(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 5432) });
    socket.setTimeout(2000);
    socket.once('connect', () => resolve(socket.end() && true));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => resolve(socket.destroy() && false));
  });
}

const suiteStart = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(0)} s`;

/** CPU seconds used by the child processes this script has waited for (Linux: /proc/self/stat cutime + cstime). */
function childCpu() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

/** "CPU 612 s, load 3.1": how busy a stage kept the machine, to read beside its wall time. */
function usage(cpuBefore) {
  const cpu = childCpu();
  const load = loadavg()[0].toFixed(1);
  return cpu === undefined || cpuBefore === undefined
    ? `load ${load}`
    : `CPU ${(cpu - cpuBefore).toFixed(0)} s, load ${load}`;
}

function vitest(name, dir, env = {}) {
  console.log(`\n━━ ${name} ━━`);
  const started = Date.now();
  const cpuBefore = childCpu();
  const out = `${results}/${name.replace(/\W+/g, '-')}.json`;
  const code = run(
    process.execPath,
    [
      '../../node_modules/vitest/vitest.mjs',
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=../../${out}`,
    ],
    { cwd: dir, env },
  );
  if (existsSync(out)) {
    const r = JSON.parse(readFileSync(out, 'utf8'));
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests;
    totals.skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  } else if (code !== 0) totals.failed += 1;
  console.log(`━━ ${name}: ${seconds(started)} (${usage(cpuBefore)}) ━━`);
  if (code !== 0) finish(code);
}

function finish(code) {
  console.log(
    `\nTotal: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped (${seconds(suiteStart)}; ${usage(0)})`,
  );
  process.exit(code);
}

/** Runs `npm run <script>` with its output kept until it ends, then prints it under its stage heading. */
function npmScript(name) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', name, '--silent']);
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => {
      process.stdout.write(`\n━━ ${name} ━━\n${output}━━ ${name}: ${seconds(started)} ━━\n`);
      resolve(code ?? 1);
    });
  });
}

/** Lint and typecheck are single-threaded tools: asked together, they run side by side. */
async function staticChecks(names) {
  const codes = await Promise.all(names.map(npmScript));
  const failed = codes.find((code) => code !== 0);
  if (failed !== undefined) {
    totals.failed += 1;
    finish(failed);
  }
}

const STAGES = {
  lint: () => staticChecks(['lint']),
  typecheck: () => staticChecks(['typecheck']),
  unit: () => {
    vitest('unit: shared', 'packages/shared');
    vitest('unit: web', 'packages/web');
    vitest('canvas emulator', 'packages/canvas-emulator');
  },
  'server-pglite': () => vitest('server (PGlite)', 'packages/server', { TEST_DATABASE_URL: '' }),
  'server-pg': async () => {
    if (await postgresAnswers(PG_URL)) {
      vitest('server (PostgreSQL)', 'packages/server', { TEST_DATABASE_URL: PG_URL });
    } else {
      console.log(`\n!!!!!!!! SKIPPED: PostgreSQL leg — nothing answers at ${PG_URL} !!!!!!!!`);
      if (CI) {
        console.error('Under CI=true the PostgreSQL leg must run.');
        finish(1);
      }
    }
  },
  e2e: () => {
    ensureChromium();
    buildWeb();
    vitest('e2e (Chromium)', 'packages/e2e');
  },
};

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in STAGES));
if (unknown.length > 0) {
  console.error(`Unknown stage ${unknown.join(', ')}: the stages are ${Object.keys(STAGES).join(', ')}.`);
  process.exit(2);
}

ensureDependencies();
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });
const chosen = asked.length > 0 ? asked : Object.keys(STAGES);
const together = ['lint', 'typecheck'].filter((name) => chosen.includes(name));
if (together.length > 0) await staticChecks(together);
for (const name of chosen.filter((n) => !together.includes(n))) await STAGES[name]();
finish(0);
