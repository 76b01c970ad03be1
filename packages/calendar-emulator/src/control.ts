import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyError, readJsonObject, sendJson } from './http.ts';
import type { Emulator } from './server.ts';

/**
 * Control routes for tests and dev (`/__emulator/...`): `GET state` (events, consent visits, revocations),
 * `POST faults` `{"summary": "Essay", "status": 500, "times": 1}`, `POST revoke-fault` `{"status": 503}`,
 * `DELETE faults` (both kinds), `DELETE events`, `POST expire-tokens`.
 */
export async function handleControl(req: IncomingMessage, res: ServerResponse, url: URL, emu: Emulator) {
  const route = `${req.method} ${url.pathname}`;
  try {
    if (route === 'GET /__emulator/state') {
      return sendJson(res, 200, {
        authorizations: emu.authorizations,
        consents: emu.consentCount(),
        events: emu.events.map(({ token: _token, ...e }) => e),
        calendars: emu.calendars,
        faults: emu.faults,
        revocations: emu.revocations.map(({ token: _token, ...r }) => r),
      });
    }
    if (route === 'POST /__emulator/faults') {
      const b = await readJsonObject(req);
      const status = b.status === undefined ? undefined : Number(b.status);
      if (status !== undefined && !(status >= 400 && status <= 599)) throw new BodyError('status must be 400 to 599');
      const id = emu.failInsert({
        summary: b.summary === undefined ? undefined : String(b.summary),
        status,
        times: b.times === undefined ? undefined : Number(b.times),
      });
      return sendJson(res, 201, { id });
    }
    if (route === 'POST /__emulator/revoke-fault') {
      const b = await readJsonObject(req);
      const status = b.status === undefined ? 500 : Number(b.status);
      if (!(status >= 400 && status <= 599)) throw new BodyError('status must be 400 to 599');
      emu.failRevoke({ status, times: b.times === undefined ? undefined : Number(b.times) });
      return sendJson(res, 201, { ok: true });
    }
    if (route === 'DELETE /__emulator/faults') {
      emu.clearFaults();
      return sendJson(res, 200, { ok: true });
    }
    if (route === 'DELETE /__emulator/events') {
      emu.events.length = 0;
      return sendJson(res, 200, { ok: true });
    }
    if (route === 'POST /__emulator/expire-tokens') {
      emu.expireAccessTokens();
      return sendJson(res, 200, { ok: true });
    }
    return sendJson(res, 404, { error: 'unknown control route' });
  } catch (err) {
    if (err instanceof BodyError) return sendJson(res, 400, { error: err.message });
    throw err;
  }
}
