// Type-checks every workspace package with its own tsconfig, and the benchmarks (bench/tsconfig.json).
import { spawnSync } from 'node:child_process';
import { readdirSync, existsSync } from 'node:fs';

const projects = [
  ...readdirSync('packages')
    .filter((p) => existsSync(`packages/${p}/tsconfig.json`))
    .map((p) => `packages/${p}`),
  'bench',
];
let failed = false;
for (const p of projects) {
  const r = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', p], {
    stdio: 'inherit',
  });
  if (r.status !== 0) failed = true;
  else console.log(`typecheck ${p}: ok`);
}
process.exit(failed ? 1 : 0);
