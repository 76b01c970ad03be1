// `npm run backup` / `npm run restore` / `npm run admin`: the compiled command (packages/server/dist/<name>.js) when
// the server build is current, else its TypeScript source through tsx (a checkout being worked on).
import { existsSync } from 'node:fs';
import { run, serverBuildStale } from './lib.mjs';

const [name, ...args] = process.argv.slice(2);
const built = `packages/server/dist/${name}.js`;
const source = `packages/server/src/cli/${name}.ts`;
const fromSource = existsSync(source) && (serverBuildStale() || !existsSync(built)) && existsSync('node_modules/tsx');
const argv = fromSource ? ['--import', 'tsx', source, ...args] : ['--enable-source-maps', built, ...args];
process.exit(run(process.execPath, argv));
