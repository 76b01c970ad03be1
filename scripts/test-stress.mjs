// `npm run test:stress -- [--runs N] [--busy N] <stage>…`: runs test stages (those of `npm test`) while other
// processes keep cores busy, until they pass N times in a row (default 5) or one fails, so a test that holds only
// on a quiet machine shows up here rather than in CI. Prints each run's stage times, total and load average.
import { spawn, spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at === -1) return fallback;
  const [, value] = args.splice(at, 2);
  return Number(value);
};
const runs = option('--runs', 5);
const busy = option('--busy', 1);
const stages = args;

// A busy loop per core asked for, at normal priority: it competes with the tests as a second workload would.
const loop = 'for(;;){let x=0;for(let i=0;i<1e7;i++)x+=i;if(x<0)break}';
const burners = Array.from({ length: busy }, () => spawn(process.execPath, ['-e', loop], { stdio: 'ignore' }));
const stopBurners = () => burners.forEach((b) => b.kill('SIGKILL'));
process.on('exit', stopBurners);
process.on('SIGINT', () => process.exit(130));

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(`Stress: ${busy} busy core(s), stages ${stages.join(' ') || '(all)'}, ${runs} run(s) in a row.`);

for (let i = 1; i <= runs; i++) {
  const started = Date.now();
  const r = spawnSync(process.execPath, ['scripts/test.mjs', ...stages], {
    stdio: ['inherit', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  });
  process.stdout.write(r.stdout ?? '');
  const times = [...(r.stdout ?? '').matchAll(/━━ ([^━\n]+): (\d+ s) ━━/g)].map((m) => `${m[1]} ${m[2]}`);
  const total = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`\n== stress run ${i}/${runs}: exit ${r.status}, ${total} s, load ${load()} | ${times.join(' | ')}`);
  if (r.status !== 0) process.exit(r.status ?? 1);
}
console.log(`\nStress: ${runs} run(s) in a row passed.`);
