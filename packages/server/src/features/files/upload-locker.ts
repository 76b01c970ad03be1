import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/server';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connect.ts';
import { dropLock, renewLock, requestRelease, takeLock } from './resumable-uploads.repository.ts';

export interface SharedLockerOptions {
  /** How long a lock lasts without renewal (a crashed instance's locks free up after it). */
  leaseMs?: number;
  /** How often a holder renews its lease and looks whether another request waits. */
  renewMs?: number;
  /** How often a waiting request tries again. */
  pollMs?: number;
  /** How long a request waits for a lock before giving up (tus answers 500 "lock timeout"). */
  acquireTimeoutMs?: number;
}

/**
 * The tus lock of an upload, shared by every instance through its resumable_uploads row: one request at a time
 * reads or writes an upload's bytes (a PATCH on one instance, the HEAD of a client resuming on another).
 * A request that waits asks the holder to let go, as tus's in-memory locker does: a holder in this process at
 * once, one on another instance at its next renewal; the holder's request then ends (keeping what it received).
 */
export class SharedLocker implements Locker {
  /** Locks held by requests of this process, with the callback that makes each one let go. */
  readonly held = new Map<string, RequestRelease>();
  readonly leaseMs: number;
  readonly renewMs: number;
  readonly pollMs: number;
  readonly acquireTimeoutMs: number;

  constructor(
    readonly db: Db,
    readonly log: Pick<FastifyBaseLogger, 'warn'>,
    options: SharedLockerOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? 10_000;
    this.renewMs = options.renewMs ?? 1_000;
    this.pollMs = options.pollMs ?? 100;
    this.acquireTimeoutMs = options.acquireTimeoutMs ?? 30_000;
  }

  newLock(id: string): Lock {
    return new SharedLock(id, this);
  }
}

class SharedLock implements Lock {
  private readonly token = randomUUID();
  private renewal: NodeJS.Timeout | undefined;
  private holding = false;
  private release: RequestRelease | undefined;

  constructor(
    private readonly id: string,
    private readonly locker: SharedLocker,
  ) {}

  async lock(signal: AbortSignal, release: RequestRelease): Promise<void> {
    const { db, leaseMs, pollMs } = this.locker;
    const deadline = Date.now() + this.locker.acquireTimeoutMs;
    let askedAt = 0;
    for (;;) {
      const outcome = await takeLock(db, this.id, this.token, leaseMs);
      // An upload without a row does not exist: nothing to hold (reading it answers 404).
      if (outcome === 'missing') return;
      if (outcome === 'locked') {
        this.holding = true;
        this.release = release;
        this.locker.held.set(this.id, release);
        this.renew(release);
        return;
      }
      if (Date.now() - askedAt >= this.locker.renewMs) {
        askedAt = Date.now();
        await requestRelease(db, this.id);
        await this.locker.held.get(this.id)?.();
      }
      if (signal.aborted || Date.now() + pollMs > deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
      await sleep(pollMs, undefined, { signal }).catch(() => undefined);
    }
  }

  private renew(release: RequestRelease) {
    const { db, leaseMs, renewMs, log } = this.locker;
    this.renewal = setInterval(() => {
      renewLock(db, this.id, this.token, leaseMs)
        .then(async ({ held, releaseRequested }) => {
          if (!this.holding) return;
          if (!held || releaseRequested) await release();
        })
        .catch((err: unknown) => log.warn({ err, upload: this.id }, 'renewing an upload lock failed'));
    }, renewMs);
    this.renewal.unref();
  }

  async unlock(): Promise<void> {
    clearInterval(this.renewal);
    if (!this.holding) return;
    this.holding = false;
    if (this.locker.held.get(this.id) === this.release) this.locker.held.delete(this.id);
    await dropLock(this.locker.db, this.id, this.token);
  }
}
