import type { FastifyRequest } from 'fastify';
import type { RateLimitOptions } from '@fastify/rate-limit';

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
