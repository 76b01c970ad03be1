import { beforeEach, describe, expect, it } from 'vitest';
import { createDiskGuard, DISK_MIN_FREE_BYTES } from './disk-guard.ts';

// A stand-in file system (no module mock: server test files share a worker's module cache).
const answers = { free: 1024 * 1024 * 1024, calls: 0, clock: 0 };
const clock = () => answers.clock;
async function fileSystemOf() {
  answers.calls += 1;
  await new Promise((resolve) => setTimeout(resolve, 5));
  return { bavail: answers.free / 4096, bsize: 4096 };
}

describe('disk guard', () => {
  beforeEach(() => {
    answers.free = 1024 * 1024 * 1024;
    answers.calls = 0;
    answers.clock = 0;
  });

  it('lets writes that arrive together share one statfs, and asks again for the next ones near the limit', async () => {
    answers.free = DISK_MIN_FREE_BYTES * 2;
    const guard = createDiskGuard('/data', DISK_MIN_FREE_BYTES, fileSystemOf, clock);
    await Promise.all(Array.from({ length: 50 }, () => guard.assertRoom()));
    expect(answers.calls).toBe(1);
    // Near the limit each later write asks afresh: the disk filled meanwhile, so the next write is refused.
    answers.free = DISK_MIN_FREE_BYTES - 1;
    await expect(guard.assertRoom()).rejects.toMatchObject({ statusCode: 507 });
    expect(answers.calls).toBe(2);
    await expect(guard.assertRoom()).rejects.toMatchObject({ statusCode: 507 });
    expect(answers.calls).toBe(3);
  });

  it('far from the limit, lets one answer serve the writes of the next 100 ms', async () => {
    const guard = createDiskGuard('/data', DISK_MIN_FREE_BYTES, fileSystemOf, clock);
    await guard.assertRoom();
    answers.free = DISK_MIN_FREE_BYTES - 1;
    answers.clock = 99;
    await guard.assertRoom();
    expect(answers.calls).toBe(1);
    answers.clock = 100;
    await expect(guard.assertRoom()).rejects.toMatchObject({ statusCode: 507 });
    expect(answers.calls).toBe(2);
  });
});
