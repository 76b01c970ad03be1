import { randomBytes, scrypt as scryptCb, timingSafeEqual, createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import { MSG } from '@studybuddy/shared/messages';
import { AppError } from './errors.ts';
import { Gates } from './fair-share.ts';

const scryptOnPool = promisify(scryptCb) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>;

// scrypt runs on libuv's thread pool (4 threads), which file access, DNS and zlib share. A burst of log-ins or
// sign-ups would fill it and stall every file read (and the health probe) behind a queue of 100 ms hashes, so
// hashes take turns here: one per spare core, never more than half the pool; the rest wait in line, and past
// the line the answer is 503.
const lane = new Gates();
const HASHES_AT_ONCE = Math.min(2, Math.max(1, availableParallelism() - 1));
const HASHES_WAITING = 200;

/** Hashes running now, and how many may. */
export const hashLane = () => ({ inWork: lane.active('scrypt'), atOnce: HASHES_AT_ONCE });

async function scrypt(pw: string, salt: Buffer, len: number, opts: object): Promise<Buffer> {
  if (!(await lane.acquire('scrypt', HASHES_AT_ONCE, HASHES_WAITING).granted)) {
    throw new AppError(503, 'busy', MSG.api.rateLimited);
  }
  try {
    return await scryptOnPool(pw, salt, len, opts);
  } finally {
    lane.release('scrypt');
  }
}
// scrypt is memory-hard: N=2^15, r=8 uses 32 MiB per hash.
const PARAMS = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password.normalize('NFKC'), salt, 32, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password.normalize('NFKC'), Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: PARAMS.maxmem,
  });
  return timingSafeEqual(actual, expected);
}

/** A random URL-safe token and the SHA-256 under which it is stored. */
export function newToken(bytes = 32): { token: string; hash: string } {
  const token = randomBytes(bytes).toString('base64url');
  return { token, hash: sha256(token) };
}

export const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
