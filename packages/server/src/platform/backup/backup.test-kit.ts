// What the backup tests share: the backup and restore CLIs as npm runs them, a clock the test moves, waiting for a state.
import { spawn } from 'node:child_process';
import type { App } from '../../app.ts';
import { builtEntry, serverRoot } from '../../test/built-entry.ts';
import type { BackupClock } from './backup-schedule.ts';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run backup` / `npm run restore`, as the scripts start them, without the test's database and data settings. */
export function backupCli(
  command: 'backup' | 'restore',
  args: string[],
  env: Record<string, string> = {},
): Promise<CliRun> {
  const base = { ...process.env };
  for (const key of ['DATABASE_URL', 'TEST_DATABASE_URL', 'SECRET_KEY', 'DATA_DIR', 'STORAGE']) delete base[key];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...builtEntry(command), ...args], {
      cwd: serverRoot,
      env: { ...base, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export const restoreCli = (args: string[], env: Record<string, string> = {}) => backupCli('restore', args, env);

/** A clock the test moves: the schedule sleeps until the test wakes it at the time it asked for. */
export function manualClock(start: string) {
  let now = Date.parse(start);
  const sleepers: { until: number; wake: () => void }[] = [];
  const clock: BackupClock = {
    now: () => now,
    sleep: (until, signal) =>
      new Promise<void>((resolve) => {
        if (until <= now || signal.aborted) return resolve();
        sleepers.push({ until, wake: resolve });
        signal.addEventListener('abort', () => resolve(), { once: true });
      }),
  };
  return {
    clock,
    /** Moves to the time the schedule waits for and wakes it; answers that time. */
    async next(): Promise<Date> {
      await until(() => sleepers.length > 0, 'the schedule to wait for its next run');
      sleepers.sort((a, b) => a.until - b.until);
      const s = sleepers.shift()!;
      now = s.until;
      s.wake();
      return new Date(now);
    },
  };
}

export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 240_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export const metric = async (app: App, name: string) => {
  const line = (await app.ctx.metrics.text()).split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
};

/** Log lines the app writes, kept in memory. */
export function captureLog() {
  const lines: string[] = [];
  return { stream: { write: (line: string) => void lines.push(line) }, lines };
}
