import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDemoData, type DataOptions } from './demo-data.ts';
import { FaultTable, type FaultRule } from './faults.ts';
import type { EmuData } from './model.ts';
import { InvalidPageError, paginate } from './pagination.ts';
import { matchRoute } from './routes.ts';
import { EmuHttpError, notFoundError } from './route-context.ts';
import type { Json } from './json.ts';
import { authError, faultError, send, serializeJson, throttled, type TokenState } from './responses.ts';
import { handleDownload } from './downloads.ts';
import { CANVAS_THROTTLE, Throttle, type ThrottleOptions } from './throttle.ts';
import { handleControl } from './control.ts';
import { createTokenPages, TOKEN_PAGE_PATHS } from './token-page.ts';

export type { TokenState } from './responses.ts';

/** The token the demo student's Canvas account has (shown by `npm start` of this package and in the README). */
export const DEMO_TOKEN = '7~StudyBuddyDemoCanvasToken0000000000000000000000000000';

export interface EmulatorOptions {
  port?: number;
  host?: string;
  /** Ready data, or options for the generated demo data. */
  data?: EmuData | DataOptions;
  /** Tokens that start valid (default: DEMO_TOKEN). */
  tokens?: string[];
  /** Added to every API answer. */
  latencyMs?: number;
  /** Canvas's Api::MAX_PER_PAGE (100). */
  maxPerPage?: number;
  /** The leaky-bucket throttle; `false` turns it off. */
  throttle?: Partial<ThrottleOptions> | false;
  /** "Valid token, no permission": 403 (api_auth_error_updates on, default) or the legacy 401. */
  forbiddenStatus?: 401 | 403;
}

export interface RequestRecord {
  method: string;
  path: string;
  token: string | null;
  status: number;
  startedAt: number;
  endedAt: number;
  /** Requests of the same token in flight when this one started (itself included). */
  concurrent: number;
}

export interface Emulator {
  url: string;
  port: number;
  data: EmuData;
  tokens: Map<string, TokenState>;
  faults: FaultTable;
  requests: RequestRecord[];
  addToken(token: string): void;
  /** The token stops working from now on: 401 "Expired access token.". */
  expireToken(token: string): void;
  revokeToken(token: string): void;
  addFault(rule: FaultRule): string;
  clearFaults(): void;
  setLatency(ms: number): void;
  /** Highest number of requests one token had in flight at once since the last reset. */
  maxInFlight(token?: string): number;
  resetStats(): void;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function isEmuData(x: EmuData | DataOptions | undefined): x is EmuData {
  return !!x && Array.isArray((x as EmuData).courses);
}

function tokenOf(req: IncomingMessage, url: URL): string | null {
  const auth = req.headers.authorization;
  // lib/authentication_methods.rb: exactly "Bearer <token>", case-sensitive; else the access_token param.
  if (auth?.startsWith('Bearer ')) return auth.slice('Bearer '.length).trim() || null;
  return url.searchParams.get('access_token');
}

/** Starts a Canvas emulator; `port: 0` (default) picks a free port. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const data = isEmuData(options.data) ? options.data : createDemoData(options.data);
  const tokens = new Map<string, TokenState>();
  for (const t of options.tokens ?? [DEMO_TOKEN]) tokens.set(t, { state: 'active' });
  const faults = new FaultTable();
  const throttle = options.throttle === false ? null : new Throttle({ ...CANVAS_THROTTLE, ...options.throttle });
  const forbiddenStatus = options.forbiddenStatus ?? 403;
  const maxPerPage = options.maxPerPage ?? 100;
  let latencyMs = options.latencyMs ?? 0;
  const requests: RequestRecord[] = [];
  const inFlight = new Map<string, number>();
  const peaks = new Map<string, number>();
  const hanging = new Set<ServerResponse>();
  const tokenPages = createTokenPages((t) => void tokens.set(t, { state: 'active' }));

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL, origin: string): Promise<number> {
    const stringIds = (req.headers.accept ?? '').includes('application/json+canvas-string-ids');
    const token = tokenOf(req, url);
    const matched = matchRoute(url.pathname);
    const hits = faults.take({
      token,
      pathname: url.pathname,
      courseId: matched?.courseId ?? null,
      resource: matched?.route.resource ?? null,
    });
    const extraLatency = hits.reduce((ms, f) => ms + (f.kind === 'latency' ? (f.latencyMs ?? 0) : 0), 0);
    // The answer comes this long after the request (the emulator's own work counts toward it, as a remote
    // server's would); an admitted request holds its up-front throttle cost meanwhile.
    const answerAt = Date.now() + latencyMs + extraLatency;
    const work = () => (answerAt > Date.now() ? sleep(answerAt - Date.now()) : Promise.resolve());

    const dead = authError(token ? tokens.get(token) : undefined, token);
    if (dead) {
      await work();
      send(res, dead.status, dead.body, dead.headers, stringIds);
      return dead.status;
    }
    for (const f of hits) {
      const e = faultError(f);
      if (e) await work();
      if (e === 'hang') {
        hanging.add(res);
        return 0;
      }
      if (e === 'throttle') return throttled(res, f.status ?? throttle?.options.mode ?? 429, stringIds);
      if (e) {
        send(res, e.status, e.body, e.headers, stringIds);
        return e.status;
      }
    }
    const key = `token:${token}`;
    const admitted = throttle?.begin(key);
    if (throttle && admitted && !admitted.allowed) return throttled(res, throttle.options.mode, stringIds);
    let status = 200;
    let body: Json;
    const headers: Record<string, string> = {};
    try {
      if (req.method !== 'GET') throw notFoundError();
      if (!matched) throw notFoundError();
      const include = new Set(url.searchParams.getAll('include[]'));
      const result = matched.route.handler({ url, origin, data, params: matched.params, include, forbiddenStatus });
      if ('list' in result) {
        const page = paginate(result.list, url, origin, { maxPerPage, bookmark: result.bookmark });
        headers.Link = page.link;
        body = page.items;
      } else body = result.one;
    } catch (err) {
      if (err instanceof EmuHttpError) {
        status = err.status;
        body = err.body;
        Object.assign(headers, err.headers);
      } else if (err instanceof InvalidPageError) {
        status = 404;
        body = { errors: [{ message: 'The specified resource does not exist.' }] };
      } else {
        status = 500;
        body = { errors: [{ message: 'An error occurred.', error_code: 'internal_server_error' }] };
      }
    }
    const serialized = serializeJson(body, stringIds);
    await work();
    if (throttle) {
      headers['X-Request-Cost'] = String(throttle.options.costPerRequest);
      headers['X-Rate-Limit-Remaining'] = throttle.end(key).toFixed(1);
    }
    send(res, status, serialized, headers, stringIds);
    return status;
  }

  /**
   * DELETE /login/oauth2/token (canvas-lms `Oauth2ProviderController#destroy`, "Logging Out" in doc/api/oauth.md):
   * the access token of the request is destroyed and the answer is `{}`; afterwards Canvas knows it no more
   * ('Invalid access token.'). A request without a token: 400 with Canvas's message; a dead token: its 401.
   */
  function oauthLogout(req: IncomingMessage, res: ServerResponse, url: URL): number {
    const token = tokenOf(req, url);
    if (!token) {
      const message = "can't delete OAuth access token when not using an OAuth access token";
      send(res, 400, { message }, {}, false);
      return 400;
    }
    const dead = authError(tokens.get(token), token);
    if (dead) {
      send(res, dead.status, dead.body, dead.headers, false);
      return dead.status;
    }
    tokens.delete(token);
    send(res, 200, {}, {}, false);
    return 200;
  }

  const server = createServer((req, res) => {
    const origin = `http://${req.headers.host ?? 'localhost'}`;
    const url = new URL(req.url ?? '/', origin);
    const startedAt = Date.now();
    const token = tokenOf(req, url);
    const key = token ?? '-';
    const concurrent = (inFlight.get(key) ?? 0) + 1;
    inFlight.set(key, concurrent);
    peaks.set(key, Math.max(peaks.get(key) ?? 0, concurrent));
    const done = (status: number) => {
      inFlight.set(key, (inFlight.get(key) ?? 1) - 1);
      if (status === 0) return;
      if (url.pathname.startsWith('/__emulator')) return;
      requests.push({
        method: req.method ?? 'GET',
        path: url.pathname + url.search,
        token,
        status,
        startedAt,
        endedAt: Date.now(),
        concurrent,
      });
      if (requests.length > 20_000) requests.splice(0, requests.length - 10_000);
    };
    let work: Promise<number> | number;
    if (url.pathname.startsWith('/__emulator/')) work = handleControl(req, res, url, emulator);
    else if (url.pathname.startsWith('/api/')) work = handleApi(req, res, url, origin);
    else if (url.pathname === '/login/oauth2/token' && req.method === 'DELETE') work = oauthLogout(req, res, url);
    else if (TOKEN_PAGE_PATHS.includes(url.pathname)) work = tokenPages(req, res, url);
    else work = handleDownload(res, url, data);
    Promise.resolve(work).then(done, (err: unknown) => {
      if (!res.headersSent) send(res, 500, { errors: [{ message: String(err) }] }, {}, false);
      done(500);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1';

  const emulator: Emulator = {
    url: `http://${host}:${port}`,
    port,
    data,
    tokens,
    faults,
    requests,
    addToken: (t) => void tokens.set(t, { state: 'active' }),
    expireToken: (t) => void tokens.set(t, { state: 'expired', expiredAt: new Date().toISOString() }),
    revokeToken: (t) => void tokens.set(t, { state: 'revoked' }),
    addFault: (rule) => faults.add(rule),
    clearFaults: () => faults.clear(),
    setLatency: (ms) => {
      latencyMs = ms;
    },
    maxInFlight: (t) => (t === undefined ? Math.max(0, ...peaks.values()) : (peaks.get(t) ?? 0)),
    resetStats: () => {
      requests.length = 0;
      peaks.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return emulator;
}
