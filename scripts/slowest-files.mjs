// `node scripts/slowest-files.mjs [N] [reports dir]`: the N slowest test files (default 20) of the vitest JSON
// reports `npm test` writes (node_modules/.test-results, or a dir `npm run test:stress -- --fresh` kept).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const count = Number(process.argv[2] ?? 20);
const dir = process.argv[3] ?? 'node_modules/.test-results';
const files = [];
for (const name of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
  const report = JSON.parse(readFileSync(join(dir, name), 'utf8'));
  for (const r of report.testResults ?? []) {
    const file = r.name.replace(/^.*\/packages\//, '');
    files.push({ stage: name.replace(/\.json$/, ''), file, seconds: (r.endTime - r.startTime) / 1000 });
  }
}
files.sort((a, b) => b.seconds - a.seconds);
for (const f of files.slice(0, count))
  console.log(`${f.seconds.toFixed(1).padStart(7)} s  ${f.stage.padEnd(20)} ${f.file}`);
