/**
 * Slow clients (issue 31 point 4): how long a request may take to arrive, and how many connections one client
 * address may hold. Every value has a setting; `platform/connection-guard.ts` applies them.
 */
export interface ConnectionLimits {
  /** HEADERS_TIMEOUT: the request line and headers must have arrived this long after their first byte (408). */
  headersTimeoutMs: number;
  /**
   * REQUEST_TIMEOUT: the whole request, body included, must have arrived within this; 0 (the default) is off: a
   * total-time cap would cut a slow phone's long upload, which the body rule below lets finish.
   */
  requestTimeoutMs: number;
  /**
   * BODY_TIMEOUT and BODY_MIN_BYTES_PER_SECOND: a request body gets BODY_TIMEOUT to start, and every
   * BODY_MIN_BYTES_PER_SECOND bytes that arrive buy one more second (time the server itself is not reading does not
   * count). A body slower than that on average, or stalled longer than the time it has earned, is cut off (408).
   */
  bodyTimeoutMs: number;
  bodyMinBytesPerSecond: number;
  /** CONNECTION_TIMEOUT: a connection with a request in progress and nothing sent either way this long is closed. */
  idleTimeoutMs: number;
  /** KEEP_ALIVE_TIMEOUT: an idle keep-alive connection is closed after this (longer than a proxy's idle timeout). */
  keepAliveTimeoutMs: number;
  /**
   * CONNECTIONS_PER_IP: HTTP connections one client address may hold at once (an open WebSocket leaves the count; it
   * has QUOTA_SOCKETS). Counted per TCP peer; through a trusted proxy (TRUST_PROXY), per forwarded address, as the
   * requests it has open.
   */
  perIp: number;
}

type Env = Record<string, string | undefined>;
/** config.ts passes its ConfigError, so a bad value stops the server with a message naming the setting. */
type Fail = (message: string) => Error;

function number(
  env: Env,
  fail: Fail,
  key: string,
  fallback: number,
  opts: { zero: boolean; integer: boolean; unit: string },
) {
  const raw = env[key]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  const ok = Number.isFinite(n) && (opts.zero ? n >= 0 : n > 0) && (!opts.integer || Number.isInteger(n));
  if (!ok) {
    const what = `${opts.zero ? 'a non-negative' : 'a positive'} ${opts.integer ? 'integer' : 'number'}`;
    throw fail(`${key} must be ${what}${opts.unit}, got "${raw}"`);
  }
  return n;
}

const seconds = (env: Env, fail: Fail, key: string, fallback: number, zero = false) =>
  Math.round(number(env, fail, key, fallback, { zero, integer: false, unit: ' of seconds' }) * 1000);

export const CONNECTION_DEFAULTS = {
  HEADERS_TIMEOUT: 30,
  REQUEST_TIMEOUT: 0,
  BODY_TIMEOUT: 20,
  BODY_MIN_BYTES_PER_SECOND: 2048,
  CONNECTION_TIMEOUT: 60,
  KEEP_ALIVE_TIMEOUT: 72,
  CONNECTIONS_PER_IP: 256,
} as const;

export function loadConnectionLimits(env: Env = {}, fail: Fail = (m) => new Error(m)): ConnectionLimits {
  const d = CONNECTION_DEFAULTS;
  const limits: ConnectionLimits = {
    headersTimeoutMs: seconds(env, fail, 'HEADERS_TIMEOUT', d.HEADERS_TIMEOUT),
    requestTimeoutMs: seconds(env, fail, 'REQUEST_TIMEOUT', d.REQUEST_TIMEOUT, true),
    bodyTimeoutMs: seconds(env, fail, 'BODY_TIMEOUT', d.BODY_TIMEOUT),
    bodyMinBytesPerSecond: number(env, fail, 'BODY_MIN_BYTES_PER_SECOND', d.BODY_MIN_BYTES_PER_SECOND, {
      zero: false,
      integer: true,
      unit: '',
    }),
    idleTimeoutMs: seconds(env, fail, 'CONNECTION_TIMEOUT', d.CONNECTION_TIMEOUT),
    keepAliveTimeoutMs: seconds(env, fail, 'KEEP_ALIVE_TIMEOUT', d.KEEP_ALIVE_TIMEOUT),
    perIp: number(env, fail, 'CONNECTIONS_PER_IP', d.CONNECTIONS_PER_IP, { zero: false, integer: true, unit: '' }),
  };
  if (limits.requestTimeoutMs > 0 && limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw fail('HEADERS_TIMEOUT must not be longer than REQUEST_TIMEOUT (the headers are part of the request)');
  }
  return limits;
}
