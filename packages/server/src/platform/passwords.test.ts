import { describe, expect, it } from 'vitest';
import { hashLane, hashPassword, verifyPassword } from './passwords.ts';

describe('password hashing', () => {
  it('verifies the right password only', async () => {
    const stored = await hashPassword('correct horse');
    // The full cost (tests share hashes made this way instead of lowering it): N=2^15, r=8, p=1.
    expect(stored.split('$').slice(0, 4)).toEqual(['scrypt', '32768', '8', '1']);
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('wrong horse', stored)).toBe(false);
  });

  it('runs hashes in turn, never more at once than the lane allows, so the thread pool keeps free threads', async () => {
    let peak = 0;
    const timer = setInterval(() => (peak = Math.max(peak, hashLane().inWork)), 1);
    const hashes = await Promise.all(Array.from({ length: 6 }, (_, i) => hashPassword(`password ${i}`)));
    clearInterval(timer);
    expect(new Set(hashes).size).toBe(6);
    expect(peak).toBeGreaterThanOrEqual(1);
    expect(peak).toBeLessThanOrEqual(hashLane().atOnce);
    expect(hashLane().atOnce).toBeLessThan(4); // libuv's default pool
    expect(hashLane().inWork).toBe(0);
  });
});
