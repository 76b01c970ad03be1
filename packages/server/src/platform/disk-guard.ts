import { statfs } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.ts';
import { DISK_FULL } from './faults.ts';

/**
 * Room kept free on DATA_DIR (issue 31): below it, new writes are refused with a clear 507 before anything is
 * written, so PGlite never meets a full disk halfway through its write-ahead log (it allocates 16 MB segments)
 * and a stored file is never cut short. Reads go on; deletions (which free room) are allowed.
 */
export const DISK_MIN_FREE_BYTES = 64 * 1024 * 1024;

export interface DiskGuard {
  /** Throws the clear 507 while DATA_DIR has less than the minimum free. */
  assertRoom(): Promise<void>;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH']);

/** Far from the minimum (this many times it free), an answer serves the writes of the next REUSE_MS too. */
const FAR_FACTOR = 4;
const REUSE_MS = 100;

/**
 * Watches the file system of `dir`: a statfs for each write near the limit (never a stale answer there), writes that
 * arrive while one is under way share its answer, and far from the limit an answer serves 100 ms (a busy chat
 * asked once per message: 3 % of the server's CPU at 1,000 msg/s; no write lands 192 MB within 100 ms of its check).
 */
export function createDiskGuard(
  dir: string,
  minFreeBytes = DISK_MIN_FREE_BYTES,
  fileSystemOf: (dir: string) => Promise<{ bavail: number; bsize: number }> = statfs,
  now: () => number = performance.now.bind(performance),
): DiskGuard {
  let asking: Promise<boolean> | null = null;
  let farUntil = -Infinity;
  const ask = () =>
    fileSystemOf(dir).then(
      (fs) => {
        const free = fs.bavail * fs.bsize;
        farUntil = free >= minFreeBytes * FAR_FACTOR ? now() + REUSE_MS : -Infinity;
        return free >= minFreeBytes;
      },
      () => true,
    );
  const hasRoom = async () => now() < farUntil || (asking ??= ask().finally(() => (asking = null)));
  return {
    async assertRoom() {
      if (!(await hasRoom())) throw new AppError(DISK_FULL.statusCode, DISK_FULL.code, DISK_FULL.message);
    },
  };
}

/** Refuses the API's writes (POST, PUT, PATCH) while the disk is short of room; health probes still answer. */
export function installDiskGuard(app: FastifyInstance, guard: DiskGuard): void {
  app.addHook('preHandler', async (request) => {
    if (WRITES.has(request.method) && request.url.startsWith('/api/')) await guard.assertRoom();
  });
}
