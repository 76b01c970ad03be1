import type { FastifyReply } from 'fastify';
import { MSG } from '@studybuddy/shared/messages';
import type { Db } from '../../db/connect.ts';
import { bumpCounter, forgetOldCounters, refundCounter, type Counter } from '../../platform/counters.repository.ts';
import { AppError } from '../../platform/errors.ts';
import { sha256 } from '../../platform/passwords.ts';

export type LimitedAction = 'signup' | 'login' | 'resend' | 'reset' | 'resetConfirm';

/** Attempts allowed per window (RATE_LIMIT_WINDOW, 60 s by default) per client IP and per e-mail address. */
export const LIMIT_RULES: Record<LimitedAction, { perIp: number; perEmail: number; message: string }> = {
  signup: { perIp: 20, perEmail: 5, message: MSG.signup.tooMany },
  // Log-in counts failures only: a successful attempt is refunded. The 11th failure for an e-mail gets 429.
  login: { perIp: 50, perEmail: 10, message: MSG.login.tooMany },
  resend: { perIp: 20, perEmail: 3, message: MSG.resend.tooMany },
  reset: { perIp: 20, perEmail: 3, message: MSG.reset.tooMany },
  // Reset confirmations carry a code, not an e-mail: counted per IP only (each costs a code lookup and, when the
  // code is good, a scrypt hash).
  resetConfirm: { perIp: 20, perEmail: 0, message: MSG.reset.tooMany },
};

export interface RateLimiter {
  /**
   * Counts one attempt for the IP and the e-mail; throws 429 (with Retry-After) when either is over its
   * limit in the current window. The returned function takes the attempt back (a log-in that succeeded).
   * Without an e-mail only the IP is counted.
   */
  hit(reply: FastifyReply, action: LimitedAction, ip: string, email?: string): Promise<() => Promise<void>>;
}

/**
 * Fixed-window counters in the database, so several app instances share them. The counting is one atomic
 * upsert per key: concurrent attempts can never slip past the limit.
 */
export function createRateLimiter(db: Db, opts: { enabled: boolean; windowMs: number; now?: () => Date }): RateLimiter {
  const now = opts.now ?? (() => new Date());
  const bump = (key: string, at: Date) => bumpCounter(db, key, at, opts.windowMs);
  const refund = (c: Counter) => refundCounter(db, c);

  return {
    async hit(reply, action, ip, email) {
      if (!opts.enabled) return async () => {};
      const rule = LIMIT_RULES[action];
      const at = now();
      const counters = await Promise.all([
        bump(sha256(`${action}:ip:${ip}`), at),
        ...(email === undefined ? [] : [bump(sha256(`${action}:email:${email.toLowerCase()}`), at)]),
      ]);
      await forgetOldCounters(db, at);
      const [byIp, byEmail] = counters as [Counter, Counter | undefined];
      const emailOver = byEmail !== undefined && byEmail.count > rule.perEmail;
      if (byIp.count > rule.perIp || emailOver) {
        const endsAt = Math.max(
          byIp.count > rule.perIp ? byIp.windowEndsAt.getTime() : 0,
          emailOver ? byEmail.windowEndsAt.getTime() : 0,
        );
        reply.header('Retry-After', String(Math.max(1, Math.ceil((endsAt - at.getTime()) / 1000))));
        throw new AppError(429, 'rate_limited', rule.message);
      }
      return async () => {
        await Promise.all(counters.map(refund));
      };
    },
  };
}
