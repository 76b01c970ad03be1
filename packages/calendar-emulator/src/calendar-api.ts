import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyError, googleError, readJsonObject, sendJson } from './http.ts';
import type { AccessRole } from './model.ts';
import type { EmulatorState } from './state.ts';

const ROLE_RANK: Record<AccessRole, number> = { freeBusyReader: 0, reader: 1, writer: 2, owner: 3 };

function bearer(req: IncomingMessage): string | null {
  const auth = req.headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice(7).trim() : null;
}

const isDateTime = (v: unknown) =>
  !!v &&
  typeof v === 'object' &&
  typeof (v as { dateTime?: unknown }).dateTime === 'string' &&
  !Number.isNaN(Date.parse((v as { dateTime: string }).dateTime));

/** Calendar API v3: `GET users/me/calendarList` and `POST calendars/{calendarId}/events` (insert). */
export class CalendarApi {
  constructor(private state: EmulatorState) {}

  /** Handles `/calendar/v3/...`; `origin` builds the events' htmlLink. */
  async handle(req: IncomingMessage, res: ServerResponse, url: URL, origin: string): Promise<number> {
    const token = bearer(req);
    const issued = token ? this.state.tokens.get(token) : undefined;
    if (!issued || issued.kind !== 'access' || (issued.expiresAt ?? 0) <= Date.now()) {
      return googleError(res, 401, 'Request had invalid authentication credentials.', 'authError');
    }
    const path = url.pathname.slice('/calendar/v3'.length);
    if (req.method === 'GET' && path === '/users/me/calendarList') return this.calendarList(res, url);
    const insert = /^\/calendars\/([^/]+)\/events$/.exec(path);
    if (req.method === 'POST' && insert) return this.insert(req, res, decodeURIComponent(insert[1]!), token!, origin);
    return googleError(res, 404, 'Not Found', 'notFound');
  }

  private calendarList(res: ServerResponse, url: URL): number {
    const min = url.searchParams.get('minAccessRole') as AccessRole | null;
    const all = this.state.calendars.filter((c) => !min || ROLE_RANK[c.accessRole] >= (ROLE_RANK[min] ?? 0));
    const maxResults = Math.min(250, Math.max(1, Number(url.searchParams.get('maxResults') ?? 100) || 100));
    const offset = Number(url.searchParams.get('pageToken') ?? 0) || 0;
    const page = all.slice(offset, offset + maxResults);
    const next = offset + maxResults < all.length ? String(offset + maxResults) : undefined;
    return sendJson(res, 200, {
      kind: 'calendar#calendarList',
      etag: '"emu"',
      ...(next ? { nextPageToken: next } : { nextSyncToken: 'emu-sync' }),
      items: page.map((c) => ({
        kind: 'calendar#calendarListEntry',
        id: c.id,
        summary: c.summary,
        timeZone: 'UTC',
        accessRole: c.accessRole,
        ...(c.primary ? { primary: true } : {}),
      })),
    });
  }

  private async insert(
    req: IncomingMessage,
    res: ServerResponse,
    calendarId: string,
    token: string,
    origin: string,
  ): Promise<number> {
    const calendar = this.state.calendars.find((c) => c.id === calendarId);
    if (!calendar) return googleError(res, 404, 'Not Found', 'notFound');
    if (ROLE_RANK[calendar.accessRole] < ROLE_RANK.writer) {
      return googleError(res, 403, 'You need to have writer access to this calendar.', 'requiredAccessLevel');
    }
    let body: Record<string, unknown>;
    try {
      body = await readJsonObject(req);
    } catch (err) {
      if (err instanceof BodyError) return googleError(res, 400, err.message, 'parseError');
      throw err;
    }
    if (!isDateTime(body.start)) return googleError(res, 400, 'Missing start time.', 'required');
    if (!isDateTime(body.end)) return googleError(res, 400, 'Missing end time.', 'required');
    const start = Date.parse((body.start as { dateTime: string }).dateTime);
    const end = Date.parse((body.end as { dateTime: string }).dateTime);
    if (end < start) return googleError(res, 400, 'The specified time range is empty.', 'timeRangeEmpty');
    const summary = typeof body.summary === 'string' ? body.summary : '';
    const fault = this.state.faults.find((f) => f.summary === undefined || summary.includes(f.summary));
    if (fault) {
      if (fault.times !== undefined && --fault.times <= 0)
        this.state.faults.splice(this.state.faults.indexOf(fault), 1);
      return googleError(res, fault.status, fault.status >= 500 ? 'Backend Error' : 'Request failed', 'backendError');
    }
    const id = randomBytes(10).toString('hex');
    const eid = Buffer.from(`${id} ${calendarId}`).toString('base64url');
    const htmlLink = `${origin}/calendar/event?eid=${eid}`;
    this.state.events.push({ id, calendarId, htmlLink, body, token });
    const now = new Date().toISOString();
    return sendJson(res, 200, {
      kind: 'calendar#event',
      etag: `"${Date.now()}"`,
      id,
      status: 'confirmed',
      htmlLink,
      created: now,
      updated: now,
      ...body,
      creator: { email: 'student@example.com', self: true },
      organizer: { email: calendarId, self: true },
      iCalUID: `${id}@google.com`,
    });
  }
}
