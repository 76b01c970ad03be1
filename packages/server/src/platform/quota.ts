import { MSG } from '@studybuddy/shared/messages';
import type { Db } from '../db/connect.ts';
import { addWithinLimit, subtractCounter } from './counters.repository.ts';
import { AppError } from './errors.ts';
import { sha256 } from './passwords.ts';

export const DAY_MS = 24 * 60 * 60 * 1000;
export const HOUR_MS = 60 * 60 * 1000;

export interface QuotaRule {
  /** What is counted, as the student reads it (a MSG.quota text). */
  what: string;
  limit: number;
  windowMs: number;
  /** The sentence after the limit: when or how it frees up. */
  when?: string;
}

/** 429 with a message that names the limit, e.g. "Limit reached: friend requests sent per day (100). …". */
export function quotaExceeded(rule: Pick<QuotaRule, 'what' | 'when'>, limit: string | number): AppError {
  return new AppError(
    429,
    'quota_exceeded',
    MSG.quota.exceeded(rule.what, String(limit), rule.when ?? MSG.quota.tryLater),
  );
}

export interface Quota {
  /**
   * Counts `amount` against `key` in a fixed window; throws `quotaExceeded` (and counts nothing) when the window
   * already holds `limit`. Kept in the shared rate_limits table so every instance sees the same count.
   */
  consume(key: string, rule: QuotaRule, amount?: number): Promise<void>;
  /** Gives back what `consume` counted (the work it guarded failed). */
  refund(key: string, amount?: number): Promise<void>;
}

export function createQuota(db: Db, now: () => Date = () => new Date()): Quota {
  const hashed = (key: string) => sha256(`quota:${key}`);
  return {
    async consume(key, rule, amount = 1) {
      if (amount > rule.limit) throw quotaExceeded(rule, rule.limit);
      // The count only moves when it stays within the limit, so concurrent requests can never slip past it.
      const taken = await addWithinLimit(db, hashed(key), amount, rule.limit, now(), rule.windowMs);
      if (!taken) throw quotaExceeded(rule, rule.limit);
    },
    async refund(key, amount = 1) {
      await subtractCounter(db, hashed(key), amount);
    },
  };
}
