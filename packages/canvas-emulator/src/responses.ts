/** How the emulator answers: JSON or text bodies, Canvas's auth failures, injected faults, throttling. */
import type { ServerResponse } from 'node:http';
import type { ActiveFault } from './faults.ts';
import { stringifyIds, type Json } from './json.ts';
import { EmuHttpError, notFoundError, tabDisabledError, unauthorizedError } from './route-context.ts';

export interface TokenState {
  state: 'active' | 'expired' | 'revoked';
  expiredAt?: string;
}

/** A JSON answer serialised ahead of sending (so the work overlaps the simulated latency). */
export class SerializedJson {
  constructor(readonly text: string) {}
}

export const serializeJson = (body: Json, stringIds: boolean) =>
  new SerializedJson(JSON.stringify(stringIds ? stringifyIds(body) : body));

export function send(
  res: ServerResponse,
  status: number,
  body: Json | string | SerializedJson,
  headers: Record<string, string>,
  stringIds: boolean,
) {
  const text =
    typeof body === 'string' ? body : body instanceof SerializedJson ? body.text : serializeJson(body, stringIds).text;
  res.writeHead(status, {
    'Content-Type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8',
    'Cache-Control': 'private, max-age=0, must-revalidate, no-cache',
    ...headers,
  });
  res.end(text);
}

export function authError(t: TokenState | undefined, token: string | null): EmuHttpError | null {
  const www = { 'WWW-Authenticate': 'Bearer realm="canvas-lms"' };
  if (!token) {
    return new EmuHttpError(
      401,
      { status: 'unauthenticated', errors: [{ message: 'user authorization required' }] },
      www,
    );
  }
  if (!t) return new EmuHttpError(401, { errors: [{ message: 'Invalid access token.' }] }, www);
  if (t.state === 'expired') {
    return new EmuHttpError(
      401,
      { errors: [{ message: 'Expired access token.', expired_at: t.expiredAt ?? null }] },
      www,
    );
  }
  if (t.state === 'revoked') return new EmuHttpError(401, { errors: [{ message: 'Revoked access token.' }] }, www);
  return null;
}

export function faultError(f: ActiveFault): EmuHttpError | 'throttle' | 'hang' | null {
  switch (f.kind) {
    case 'expired_token':
      return authError({ state: 'expired', expiredAt: new Date().toISOString() }, 'x');
    case 'invalid_token':
      return authError(undefined, 'x');
    case 'forbidden':
      return unauthorizedError(f.status === 401 ? 401 : 403);
    case 'not_found':
      return notFoundError();
    case 'tab_disabled':
      return tabDisabledError();
    case 'server_error': {
      const status = f.status ?? 500;
      const code = status === 503 ? 'service_unavailable' : status === 502 ? 'bad_gateway' : 'internal_server_error';
      return new EmuHttpError(status, {
        errors: [{ message: 'An error occurred.', error_code: code }],
        error_report_id: 1,
      });
    }
    case 'throttle':
      return 'throttle';
    case 'hang':
      return 'hang';
    default:
      return null;
  }
}

export function throttled(res: ServerResponse, mode: number, stringIds: boolean): number {
  const status = mode === 403 ? 403 : 429;
  const text = status === 403 ? '403 Forbidden (Rate Limit Exceeded)\n' : '429 Forbidden (Rate Limit Exceeded)\n';
  send(res, status, text, { 'X-Rate-Limit-Remaining': '0.0' }, stringIds);
  return status;
}
