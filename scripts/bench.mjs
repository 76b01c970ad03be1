// `npm run bench`: runs every benchmark under bench/ in turn; each prints its own figures.
import { readdirSync } from 'node:fs';
import { ensureDependencies, run } from './lib.mjs';

ensureDependencies();
const only = process.argv[2];
let failed = 0;
for (const file of readdirSync('bench').filter((f) => /\.bench\.(ts|mjs)$/.test(f) && (!only || f.includes(only)))) {
  console.log(`\n━━ bench/${file} ━━`);
  if (run(process.execPath, ['--import', 'tsx', `bench/${file}`]) !== 0) failed++;
}
process.exit(failed ? 1 : 0);
