// `npm run test:stress -- [--runs N] [--busy N] [--fresh] <stage>…`: runs test stages (those of `npm test`) while
// other processes keep cores busy, until they pass N times in a row (default 5) or one fails, so a test that holds
// only on a quiet machine shows up here rather than in CI. Prints each run's stage times, total and load average.
// `--fresh` runs CI's own command instead (`.ci/run`, every stage) in a fresh clone of HEAD for each run.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at === -1) return fallback;
  const [, value] = args.splice(at, 2);
  return Number(value);
};
const runs = option('--runs', 5);
const busy = option('--busy', 1);
const fresh = args.includes('--fresh');
const stages = args.filter((a) => a !== '--fresh');

function runOnce(run) {
  const options = { stdio: ['inherit', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 };
  if (!fresh) return spawnSync(process.execPath, ['scripts/test.mjs', ...stages], options);
  const dir = mkdtempSync(join(tmpdir(), 'studybuddy-fresh-'));
  try {
    spawnSync('git', ['clone', '--quiet', '--no-local', '.', dir], { stdio: 'inherit' });
    console.log(
      `Fresh clone of ${spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim()} in ${dir}`,
    );
    const r = spawnSync(join(dir, '.ci/run'), [], { ...options, cwd: dir });
    // Each run's per-file JSON reports outlive the clone, for the slowest files.
    const kept = join(tmpdir(), 'studybuddy-stress', `run-${run}`);
    rmSync(kept, { recursive: true, force: true });
    const reports = join(dir, 'node_modules/.test-results');
    if (existsSync(reports)) cpSync(reports, kept, { recursive: true });
    console.log(`Reports kept in ${kept}`);
    return r;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// A busy loop per core asked for, at normal priority: it competes with the tests as a second workload would.
const loop = 'for(;;){let x=0;for(let i=0;i<1e7;i++)x+=i;if(x<0)break}';
const burners = Array.from({ length: busy }, () => spawn(process.execPath, ['-e', loop], { stdio: 'ignore' }));
const stopBurners = () => burners.forEach((b) => b.kill('SIGKILL'));
process.on('exit', stopBurners);
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const what = fresh ? 'CI (.ci/run) in a fresh clone' : `stages ${stages.join(' ') || '(all)'}`;
console.log(`Stress: ${busy} busy core(s), ${what}, ${runs} run(s) in a row.`);

for (let i = 1; i <= runs; i++) {
  const started = Date.now();
  const r = runOnce(i);
  process.stdout.write(r.stdout ?? '');
  const times = [...(r.stdout ?? '').matchAll(/━━ ([^━\n]+): (\d+ s)[^━\n]*━━/g)].map((m) => `${m[1]} ${m[2]}`);
  const total = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`\n== stress run ${i}/${runs}: exit ${r.status}, ${total} s, load ${load()} | ${times.join(' | ')}`);
  if (r.status !== 0) process.exit(r.status ?? 1);
}
console.log(`\nStress: ${runs} run(s) in a row passed.`);
// The burners' handles keep the event loop alive: without an explicit exit they (and this script) run on.
process.exit(0);
