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

/** Runs `npm ci` when node_modules is missing or older than the lock file. */
export function ensureDependencies() {
  const marker = 'node_modules/.package-lock.json';
  const stale = !existsSync(marker) || statSync('package-lock.json').mtimeMs > statSync(marker).mtimeMs + 1000;
  if (stale) {
    console.log('Installing dependencies (npm ci)...');
    // npm 11 can write a lock file without other platforms' optional packages and then refuse `npm ci`;
    // `npm install --no-save` installs the same locked versions without touching the lock file.
    if (run('npm', ['ci', '--no-audit', '--no-fund']) !== 0) {
      console.log('npm ci refused the lock file; installing the locked versions with npm install --no-save...');
      must('npm', ['install', '--no-audit', '--no-fund', '--no-save']);
    }
  }
}

/** True when `dist` is missing or older than any file under the given source folders. */
export function needsBuild(distFile, sources) {
  if (!existsSync(distFile)) return true;
  const built = statSync(distFile).mtimeMs;
  const r = spawnSync('find', [...sources, '-newer', distFile, '-type', 'f', '-print', '-quit'], { encoding: 'utf8' });
  return r.status !== 0 || r.stdout.trim() !== '' || built === 0;
}

export function buildWeb() {
  if (
    needsBuild('packages/web/dist/index.html', ['packages/web/src', 'packages/web/index.html', 'packages/shared/src'])
  ) {
    console.log('Building the web app...');
    must('npm', ['run', 'build', '-w', 'packages/web']);
  }
}
