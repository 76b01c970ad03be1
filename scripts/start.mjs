// `npm start`: install what is missing, build what is stale (server into packages/server/dist, web app into
// packages/web/dist), then serve API + SPA with plain node (migrations run at start). The same with or without
// NODE_ENV=production: a build needs the devDependencies, so they are installed only when something must be built.
import { spawn } from 'node:child_process';
import { SERVER_ENTRY, buildServer, buildWeb, ensureDependencies, serverBuildStale, webBuildStale } from './lib.mjs';

const demo = process.argv.includes('--demo');
ensureDependencies({ dev: serverBuildStale() || webBuildStale() });
buildServer();
buildWeb();

const env = { ...process.env, WEB_DIST: process.env.WEB_DIST ?? 'packages/web/dist' };
if (demo) {
  env.DEMO = 'true';
  env.DATA_DIR = process.env.DATA_DIR ?? 'data/demo';
}
const child = spawn(process.execPath, ['--enable-source-maps', SERVER_ENTRY], { stdio: 'inherit', env });
// The server shuts down gracefully on either signal (a copy arriving within a second counts once: a terminal's Ctrl-C
// reaches both processes). npm start ends with the server's exit code, 1 when a signal killed it.
let forwarded = false;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    forwarded = true;
    child.kill(sig);
  });
}
// `npm start` runs this through sh, which dies of npm's SIGTERM without passing it on: once orphaned, stop the server.
const parent = process.ppid;
const watchParent = () => {
  if (process.ppid === parent) setTimeout(watchParent, 200).unref();
  else if (!forwarded) child.kill('SIGTERM');
};
watchParent();
child.on('exit', (code) => process.exit(code ?? 1));
