// Helpers for the project scripts: plain Node, no dependencies (they run before `npm ci`).
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts, env: { ...process.env, ...opts.env } });
  return r.status ?? 1;
}

export function must(cmd, args, opts) {
  const code = run(cmd, args, opts);
  if (code !== 0) {
    console.error(`\n✖ ${cmd} ${args.join(' ')} failed (exit ${code})`);
    process.exit(code);
  }
}

/** Packages only the build needs (devDependencies): present after a full install, absent after `--omit=dev`. */
const BUILD_TOOLS = ['vite', 'esbuild', 'typescript'];

/**
 * Runs `npm ci` when node_modules is missing or older than the lock file. `dev`: the build runs next, so its
 * tools (devDependencies) must be there too: under NODE_ENV=production npm leaves them out unless told otherwise.
 */
export function ensureDependencies({ dev = true } = {}) {
  const marker = 'node_modules/.package-lock.json';
  const stale = !existsSync(marker) || statSync('package-lock.json').mtimeMs > statSync(marker).mtimeMs + 1000;
  const toolsMissing = dev && BUILD_TOOLS.some((name) => !existsSync(`node_modules/${name}/package.json`));
  if (stale || toolsMissing) {
    const include = dev ? ['--include=dev'] : [];
    console.log(`Installing dependencies (npm ci${dev ? ' --include=dev' : ''})...`);
    // npm 11 can write a lock file without other platforms' optional packages and then refuse `npm ci`;
    // `npm install --no-save` installs the same locked versions without touching the lock file.
    if (run('npm', ['ci', '--no-audit', '--no-fund', ...include]) !== 0) {
      console.log('npm ci refused the lock file; installing the locked versions with npm install --no-save...');
      must('npm', ['install', '--no-audit', '--no-fund', '--no-save', ...include]);
    }
  }
}

/**
 * True when `distFile` is missing or older than any file under the given sources. Sources that are not there
 * (a deployment that ships only the built output) are skipped; with none left, a present build is current.
 */
export function needsBuild(distFile, sources) {
  if (!existsSync(distFile)) return true;
  const present = sources.filter((s) => existsSync(s));
  if (present.length === 0) return false;
  const r = spawnSync('find', [...present, '-newer', distFile, '-type', 'f', '-print', '-quit'], { encoding: 'utf8' });
  return r.status !== 0 || r.stdout.trim() !== '';
}

const WEB_SOURCES = [
  'packages/web/src',
  'packages/web/public',
  'packages/web/index.html',
  'packages/web/vite.config.ts',
  'packages/web/vite-precompress.ts',
];
const SERVER_SOURCES = [
  'packages/server/src',
  'packages/server/build.mjs',
  'packages/canvas-emulator/src',
  'packages/calendar-emulator/src',
];
export const SERVER_ENTRY = 'packages/server/dist/main.js';

export const serverBuildStale = () => needsBuild(SERVER_ENTRY, [...SERVER_SOURCES, 'packages/shared/src']);
export const webBuildStale = () => needsBuild('packages/web/dist/index.html', [...WEB_SOURCES, 'packages/shared/src']);

export function buildServer() {
  if (serverBuildStale()) must('npm', ['run', 'build', '-w', 'packages/server']);
}

export function buildWeb() {
  if (webBuildStale()) {
    console.log('Building the web app...');
    must('npm', ['run', 'build', '-w', 'packages/web']);
  }
}
