/** The emulator's control API (`/__emulator/...`): faults, tokens and latency from outside the process (dev, demo). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultKind, FaultRule } from './faults.ts';
import type { Resource } from './model.ts';
import type { Emulator } from './server.ts';

const KINDS: FaultKind[] = [
  'expired_token',
  'invalid_token',
  'forbidden',
  'not_found',
  'tab_disabled',
  'throttle',
  'server_error',
  'latency',
  'hang',
];

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 64 * 1024) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  if (!chunks.length) return {};
  const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('expected a JSON object');
  return parsed as Record<string, unknown>;
}

function reply(res: ServerResponse, status: number, body: unknown): number {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
  return status;
}

function toRule(b: Record<string, unknown>): FaultRule {
  if (!KINDS.includes(b.kind as FaultKind)) throw new Error(`kind must be one of ${KINDS.join(', ')}`);
  const num = (k: string) => (b[k] === undefined ? undefined : Number(b[k]));
  const str = (k: string) => (b[k] === undefined ? undefined : String(b[k]));
  return {
    kind: b.kind as FaultKind,
    token: str('token'),
    courseId: num('courseId'),
    resource: str('resource') as Resource | undefined,
    path: str('path'),
    times: num('times'),
    status: num('status'),
    latencyMs: num('latencyMs'),
  };
}

export async function handleControl(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  emu: Emulator,
): Promise<number> {
  try {
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /__emulator/state') {
      return reply(res, 200, {
        tokens: [...emu.tokens.entries()].map(([token, s]) => ({ token, ...s })),
        faults: emu.faults.list(),
        requests: emu.requests.length,
        maxInFlight: emu.maxInFlight(),
        courses: emu.data.courses.map((c) => ({ id: c.id, name: c.name, enrollment: c.enrollment })),
      });
    }
    if (route === 'GET /__emulator/requests') return reply(res, 200, emu.requests.slice(-500));
    if (route === 'POST /__emulator/faults') return reply(res, 201, { id: emu.addFault(toRule(await readJson(req))) });
    if (route === 'DELETE /__emulator/faults') {
      emu.clearFaults();
      return reply(res, 200, { ok: true });
    }
    const fault = /^DELETE \/__emulator\/faults\/([\w-]+)$/.exec(route);
    if (fault) return reply(res, emu.faults.remove(fault[1]!) ? 200 : 404, { ok: true });
    const tokenAction = /^POST \/__emulator\/tokens(?:\/(expire|revoke))?$/.exec(route);
    if (tokenAction) {
      const token = String((await readJson(req)).token ?? '');
      if (token.length < 1) return reply(res, 400, { error: 'token is required' });
      if (tokenAction[1] === 'expire') emu.expireToken(token);
      else if (tokenAction[1] === 'revoke') emu.revokeToken(token);
      else emu.addToken(token);
      return reply(res, 200, { ok: true });
    }
    if (route === 'POST /__emulator/latency') {
      const ms = Number((await readJson(req)).ms);
      if (!Number.isFinite(ms) || ms < 0) return reply(res, 400, { error: 'ms must be a number >= 0' });
      emu.setLatency(ms);
      return reply(res, 200, { ok: true });
    }
    if (route === 'DELETE /__emulator/stats') {
      emu.resetStats();
      return reply(res, 200, { ok: true });
    }
    return reply(res, 404, { error: 'unknown control route' });
  } catch (err) {
    return reply(res, 400, { error: err instanceof Error ? err.message : String(err) });
  }
}
