// Type-checks every workspace package with its own tsconfig, and the benchmarks (bench/tsconfig.json), two at a
// time (tsc is single-threaded; the machines we run on have two cores or more).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';

const projects = [
  ...readdirSync('packages')
    .filter((p) => existsSync(`packages/${p}/tsconfig.json`))
    .map((p) => `packages/${p}`),
  'bench',
];

function check(project) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project]);
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => {
      process.stdout.write(code === 0 ? `typecheck ${project}: ok\n` : output);
      resolve(code === 0);
    });
  });
}

// The largest projects first, so the two lanes end together.
const queue = [...projects].sort((a, b) => Number(b === 'packages/server') - Number(a === 'packages/server'));
let failed = false;
const lane = async () => {
  for (let p = queue.shift(); p; p = queue.shift()) if (!(await check(p))) failed = true;
};
await Promise.all(Array.from({ length: Math.min(2, availableParallelism()) }, lane));
process.exit(failed ? 1 : 0);
