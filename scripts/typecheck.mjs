// Type-checks every workspace package with its own tsconfig.
import { spawnSync } from 'node:child_process';
import { readdirSync, existsSync } from 'node:fs';

const packages = readdirSync('packages').filter((p) => existsSync(`packages/${p}/tsconfig.json`));
let failed = false;
for (const p of packages) {
  const r = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', `packages/${p}`], {
    stdio: 'inherit',
  });
  if (r.status !== 0) failed = true;
  else console.log(`typecheck ${p}: ok`);
}
process.exit(failed ? 1 : 0);
