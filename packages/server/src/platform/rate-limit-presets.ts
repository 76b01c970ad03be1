import type { FastifyRequest } from 'fastify';
import type { RateLimitOptions } from '@fastify/rate-limit';
import { MSG } from '@studybuddy/shared/messages';
import type { Db } from '../db/connect.ts';
import { bumpCounter } from './counters.repository.ts';
import { AppError } from './errors.ts';
import { sha256 } from './passwords.ts';

/** A route's `config` with its rate limit (none when limits are off). */
export type RouteRateLimit = { rateLimit?: RateLimitOptions };

/** Counted per signed-in student, or per address before sign-in. */
const byStudent = (request: FastifyRequest) => request.user?.id ?? request.ip;

/**
 * A route's `config` allowing `max` requests a minute per student (nothing when RATE_LIMITS=false). A feature
 * names its presets once (`const limits = { uploads: perMinute(enabled, 60) }`) and each route picks one.
 */
export function perMinute(enabled: boolean, max: number): RouteRateLimit {
  return enabled ? { rateLimit: { max, timeWindow: '1 minute', keyGenerator: byStudent } } : {};
}

/**
 * The same per-minute limit for work that does not come through a route (a socket op such as sending a message):
 * counted per student in the shared rate_limits table like the routes' limits, 429 with the routes' text past it.
 */
export async function withinPerMinute(
  db: Db,
  enabled: boolean,
  scope: string,
  studentId: string,
  max: number,
  now: Date = new Date(),
): Promise<void> {
  if (!enabled) return;
  const counted = await bumpCounter(db, sha256(`op-limit:${scope}:${studentId}`), now, 60_000);
  if (counted.count > max) throw new AppError(429, 'rate_limited', MSG.api.rateLimited);
}
