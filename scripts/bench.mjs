// `npm run bench [name]`: runs every benchmark under bench/ (or those whose file name holds `name`) in turn;
// each prints its own figures.
import { readdirSync } from 'node:fs';
import { ensureDependencies, run } from './lib.mjs';

ensureDependencies();
const only = process.argv[2];
// `npm run bench qa -- /path/to/dev-v2.0.json`: what follows the name goes to that benchmark.
const rest = process.argv.slice(3);
let failed = 0;
for (const file of readdirSync('bench').filter((f) => /\.bench\.(ts|mjs)$/.test(f) && (!only || f.includes(only)))) {
  console.log(`\n━━ bench/${file} ━━`);
  if (run(process.execPath, ['--import', 'tsx', `bench/${file}`, ...rest]) !== 0) failed++;
}
process.exit(failed ? 1 : 0);
