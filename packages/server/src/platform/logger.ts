import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import { requestIdMixin } from './request-context.ts';

export const REDACTED = '[redacted]';

/** Query parameters that carry a secret: e-mail codes (oobCode), OAuth code/state, unsubscribe tokens, keys. */
const SECRET_PARAM = /code|token|secret|state|key|password|sig|session|auth/i;
/** The calendar feed's address is its own password: `/api/calendar/feed/<secret>.ics`. */
const FEED_SECRET = /(\/calendar\/feed\/)[^/?#]+/i;

function paramName(part: string): string {
  const name = part.split('=', 1)[0]!;
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}

/** The request URL as it may be logged: feed secrets and secret-looking query values replaced by a marker. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const pathname = (q === -1 ? url : url.slice(0, q)).replace(FEED_SECRET, `$1${REDACTED}`);
  if (q === -1) return pathname;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((part) => (SECRET_PARAM.test(paramName(part)) ? `${part.split('=', 1)[0]}=${REDACTED}` : part))
    .join('&');
  return `${pathname}?${query}`;
}

/** Where log lines go instead of stdout (tests read them). */
export interface LogStream {
  write(line: string): void;
}

/**
 * Pino through Fastify: request lines carry the redacted URL and never headers; should anything log headers
 * anyway, cookies and authorization are censored.
 */
export function loggerOptions(level: string, stream?: LogStream): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    ...(stream ? { stream } : {}),
    // Lines of a request's jobs and socket events, and of code logging through ctx.log, carry its reqId.
    mixin: requestIdMixin,
    serializers: {
      req(request: FastifyRequest) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        };
      },
    },
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'headers.cookie',
        'headers.authorization',
        'res.headers["set-cookie"]',
      ],
      censor: REDACTED,
    },
  };
}
