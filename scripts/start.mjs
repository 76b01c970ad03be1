// `npm start`: install what is missing, build the web app, then serve API + SPA (migrations run at start).
import { spawn } from 'node:child_process';
import { ensureDependencies, buildWeb } from './lib.mjs';

const demo = process.argv.includes('--demo');
ensureDependencies();
buildWeb();

const env = { ...process.env, WEB_DIST: process.env.WEB_DIST ?? 'packages/web/dist' };
if (demo) {
  env.DEMO = 'true';
  env.DATA_DIR = process.env.DATA_DIR ?? 'data/demo';
}
const child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], { stdio: 'inherit', env });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
