import type { FastifyReply } from 'fastify';
import { MSG } from '@studybuddy/shared/messages';
import type { Db } from '../../db/connect.ts';
import {
  bumpCounter,
  deleteCounters,
  forgetOldCounters,
  readCounters,
  refundCounter,
  setCounter,
  type Counter,
} from '../../platform/counters.repository.ts';
import { AppError } from '../../platform/errors.ts';
import { sha256 } from '../../platform/passwords.ts';
import { LIMIT_RULES } from './rate-limit.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What slows password guessing, per subject. Every subject counts failed log-ins in the short window
 * (RATE_LIMIT_WINDOW): going over it is a strike, and each strike within a day locks the subject longer (the
 * first until its window ends, then one more window, three, seven, ... doubling up to a day). A daily cap
 * ends the day's guessing whatever the pace.
 */
export interface GuardRule {
  perWindow: number;
  perDay: number;
}

export const LOGIN_GUARD_RULES = {
  /** An e-mail address tried from a browser that never signed in to it: ~100 guesses a day instead of 14,400. */
  account: { perWindow: LIMIT_RULES.login.perEmail, perDay: 100 },
  /** One client IP, whatever the e-mail (students behind one campus NAT share it). */
  ip: { perWindow: LIMIT_RULES.login.perIp, perDay: 1000 },
  /** A known device of the account: only its own counter applies, so strangers cannot lock it out. */
  device: { perWindow: LIMIT_RULES.login.perEmail, perDay: 100 },
} as const satisfies Record<string, GuardRule>;

/** The longest a subject is locked after repeated strikes. */
export const MAX_LOCK_MS = DAY_MS;

export interface LoginAttempt {
  /** The password was right: the attempt does not count, and the account's strikes are forgiven. */
  succeeded(): Promise<void>;
  /** A wrong e-mail or password: counted against the day. */
  failed(): Promise<void>;
}

export interface LoginWho {
  ip: string;
  email: string;
  /** The known device this browser is for the account (from its signed cookie), or null. */
  deviceId: string | null;
}

export interface LoginGuard {
  /**
   * Before the password is checked: throws 429 (MSG.login.tooMany, with Retry-After) while one of the subjects
   * is locked or over its day, else counts the attempt in the short window (before the check, so a burst of
   * concurrent guesses cannot slip past) and answers how it ends.
   */
  begin(reply: FastifyReply, who: LoginWho): Promise<LoginAttempt>;
}

interface Subject {
  name: string;
  rule: GuardRule;
}

const keyOf = (subject: Subject, part: 'window' | 'day' | 'strikes' | 'lock') =>
  sha256(`login-guard:${part}:${subject.name}`);

const done: LoginAttempt = { succeeded: async () => {}, failed: async () => {} };

export function createLoginGuard(db: Db, opts: { enabled: boolean; windowMs: number; now?: () => Date }): LoginGuard {
  const now = opts.now ?? (() => new Date());
  // Locks this instance has seen, so a burst against a locked subject is refused without a query each time.
  // Only a cache: the database stays the truth, which every instance reads before its first refusal.
  const knownLocks = new Map<string, number>();
  const remember = (subject: Subject, until: number, at: Date) => {
    if (knownLocks.size >= 10_000) {
      for (const [name, end] of knownLocks) if (end <= at.getTime()) knownLocks.delete(name);
      if (knownLocks.size >= 10_000) knownLocks.clear();
    }
    knownLocks.set(subject.name, Math.max(until, knownLocks.get(subject.name) ?? 0));
  };
  const knownUntil = (subjects: Subject[], at: Date) =>
    Math.max(0, ...subjects.map((s) => knownLocks.get(s.name) ?? 0).filter((end) => end > at.getTime()));

  const refuse = (reply: FastifyReply, at: Date, until: number): never => {
    reply.header('Retry-After', String(Math.max(1, Math.ceil((until - at.getTime()) / 1000))));
    throw new AppError(429, 'rate_limited', MSG.login.tooMany);
  };

  /** The end of the lock or of the full day holding the subject back, or 0. */
  async function heldUntil(subjects: Subject[], at: Date): Promise<number> {
    const keys = subjects.flatMap((s) => [keyOf(s, 'lock'), keyOf(s, 'day')]);
    const rows = await readCounters(db, keys);
    const byKey = new Map(rows.map((r) => [r.key, r]));
    let until = 0;
    for (const s of subjects) {
      const lock = byKey.get(keyOf(s, 'lock'));
      const day = byKey.get(keyOf(s, 'day'));
      let end = 0;
      if (lock && lock.windowEndsAt > at) end = lock.windowEndsAt.getTime();
      if (day && day.windowEndsAt > at && day.count >= s.rule.perDay) end = Math.max(end, day.windowEndsAt.getTime());
      if (end) remember(s, end, at);
      until = Math.max(until, end);
    }
    return until;
  }

  /** The n-th strike of the day locks until the window ends plus (2^(n-1) - 1) windows, at most a day. */
  async function strike(subject: Subject, window: Counter, at: Date): Promise<number> {
    const strikes = await bumpCounter(db, keyOf(subject, 'strikes'), at, DAY_MS);
    const extra = opts.windowMs * (2 ** Math.min(strikes.count - 1, 30) - 1);
    const until = Math.min(window.windowEndsAt.getTime() + extra, at.getTime() + MAX_LOCK_MS);
    await setCounter(db, keyOf(subject, 'lock'), strikes.count, new Date(until));
    return until;
  }

  return {
    async begin(reply, who) {
      if (!opts.enabled) return done;
      const at = now();
      const subjects: Subject[] = who.deviceId
        ? [{ name: `device:${who.deviceId}`, rule: LOGIN_GUARD_RULES.device }]
        : [
            { name: `account:${who.email.toLowerCase()}`, rule: LOGIN_GUARD_RULES.account },
            { name: `ip:${who.ip}`, rule: LOGIN_GUARD_RULES.ip },
          ];
      const known = knownUntil(subjects, at);
      if (known) refuse(reply, at, known);
      const held = await heldUntil(subjects, at);
      if (held) refuse(reply, at, held);

      const windows = await Promise.all(subjects.map((s) => bumpCounter(db, keyOf(s, 'window'), at, opts.windowMs)));
      await forgetOldCounters(db, at);
      let until = 0;
      for (const [i, s] of subjects.entries()) {
        const w = windows[i]!;
        if (w.count <= s.rule.perWindow) continue;
        // Exactly one attempt sees the count just over the limit: that one records the strike.
        const end = w.count === s.rule.perWindow + 1 ? await strike(s, w, at) : w.windowEndsAt.getTime();
        remember(s, end, at);
        until = Math.max(until, end);
      }
      if (until) refuse(reply, at, until);

      return {
        async succeeded() {
          await Promise.all(windows.map((w) => refundCounter(db, w)));
          await deleteCounters(db, [keyOf(subjects[0]!, 'strikes')]);
        },
        async failed() {
          await Promise.all(subjects.map((s) => bumpCounter(db, keyOf(s, 'day'), at, DAY_MS)));
        },
      };
    },
  };
}
