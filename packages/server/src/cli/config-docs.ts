// `npm run config:docs`: writes the README's configuration table from the settings schema; `-- --check` only says
// whether it is current (exit 1 when not).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withConfigTable } from '../config-docs.ts';

const readmePath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../README.md');
const readme = readFileSync(readmePath, 'utf8');
const updated = withConfigTable(readme);
if (process.argv.includes('--check')) {
  if (updated !== readme) {
    console.error('README.md: the configuration table differs from config-settings.ts; run npm run config:docs');
    process.exit(1);
  }
  console.log('README.md: the configuration table matches config-settings.ts');
} else if (updated === readme) {
  console.log('README.md: the configuration table is current');
} else {
  writeFileSync(readmePath, updated);
  console.log('README.md: configuration table written');
}
