import { z } from 'zod';
import { doc, parseSettings, positiveInt, seconds } from './config-fields.ts';

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

export const CONNECTION_DEFAULTS = {
  HEADERS_TIMEOUT: 30,
  REQUEST_TIMEOUT: 0,
  BODY_TIMEOUT: 20,
  BODY_MIN_BYTES_PER_SECOND: 2048,
  CONNECTION_TIMEOUT: 60,
  KEEP_ALIVE_TIMEOUT: 72,
  CONNECTIONS_PER_IP: 256,
} as const;

const d = CONNECTION_DEFAULTS;
const row = { row: 'HEADERS_TIMEOUT' };

/** The settings' part of the one settings schema (config-settings.ts), in seconds and counts as given. */
export const connectionSettings = {
  HEADERS_TIMEOUT: doc(seconds(d.HEADERS_TIMEOUT), {
    default: '`30`, `20`, `2048`, `60`, `72`, `0` (off), `256`',
    meaning:
      'slow clients and connections per address: see [Timeouts and connection caps](#timeouts-and-connection-caps)',
  }),
  BODY_TIMEOUT: doc(seconds(d.BODY_TIMEOUT), row),
  BODY_MIN_BYTES_PER_SECOND: doc(positiveInt(d.BODY_MIN_BYTES_PER_SECOND), row),
  CONNECTION_TIMEOUT: doc(seconds(d.CONNECTION_TIMEOUT), row),
  KEEP_ALIVE_TIMEOUT: doc(seconds(d.KEEP_ALIVE_TIMEOUT), row),
  REQUEST_TIMEOUT: doc(seconds(d.REQUEST_TIMEOUT, true), row),
  CONNECTIONS_PER_IP: doc(positiveInt(d.CONNECTIONS_PER_IP), row),
};

type ConnectionSettings = z.output<z.ZodObject<typeof connectionSettings>>;

/** From the parsed settings to what connection-guard.ts applies (seconds to milliseconds). */
export function connectionLimits(s: ConnectionSettings): ConnectionLimits {
  return {
    headersTimeoutMs: Math.round(s.HEADERS_TIMEOUT * 1000),
    requestTimeoutMs: Math.round(s.REQUEST_TIMEOUT * 1000),
    bodyTimeoutMs: Math.round(s.BODY_TIMEOUT * 1000),
    bodyMinBytesPerSecond: s.BODY_MIN_BYTES_PER_SECOND,
    idleTimeoutMs: Math.round(s.CONNECTION_TIMEOUT * 1000),
    keepAliveTimeoutMs: Math.round(s.KEEP_ALIVE_TIMEOUT * 1000),
    perIp: s.CONNECTIONS_PER_IP,
  };
}

/** The headers are part of the request: a message when a set REQUEST_TIMEOUT is shorter than HEADERS_TIMEOUT. */
export function connectionConflict(s: Partial<ConnectionSettings>): string | undefined {
  const { HEADERS_TIMEOUT: headers, REQUEST_TIMEOUT: request } = s;
  if (headers !== undefined && request !== undefined && request > 0 && headers > request) {
    return 'HEADERS_TIMEOUT must not be longer than REQUEST_TIMEOUT (the headers are part of the request)';
  }
  return undefined;
}

const connectionSchema = z.object(connectionSettings).superRefine((s, ctx) => {
  const conflict = connectionConflict(s);
  if (conflict) ctx.addIssue({ code: 'custom', message: conflict });
});

export function loadConnectionLimits(env: Env = {}, makeError: Fail = (m) => new Error(m)): ConnectionLimits {
  return connectionLimits(parseSettings(connectionSchema, env, makeError));
}
