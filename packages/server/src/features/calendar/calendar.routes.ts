import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CALENDAR_RETURN,
  CALENDAR_RETURN_PARAM,
  googleExportInputSchema,
  icsExportInputSchema,
  type CalendarReturn,
} from '@studybuddy/shared/calendar';
import {
  calendarFeedResponseSchema,
  calendarStatusSchema,
  googleCalendarsResponseSchema,
  googleExportResponseSchema,
} from '@studybuddy/shared/calendar-responses';
import { MSG } from '@studybuddy/shared/messages';
import { ROUTES } from '@studybuddy/shared/routes';
import type { AppContext } from '../../platform/context.ts';
import { decryptSecret, DecryptError, encryptSecret } from '../../platform/crypto.ts';
import { notFound } from '../../platform/errors.ts';
import { errorResponses, noContent, redirect } from '../../platform/openapi.ts';
import { requireUser, signedIn } from '../../platform/session.ts';
import { feedIcs, getFeed, regenerateFeed, revokeFeed } from './feed.service.ts';
import { GoogleApiError, GoogleAuthError } from './google-client.ts';
import {
  CALLBACK_PATH,
  calendarStatus,
  disconnectGoogle,
  exportToGoogle,
  finishAuthorization,
  googleCalendars,
  googleConfig,
  startAuthorization,
} from './google-calendar.service.ts';
import { exportIcs } from './ics-export.service.ts';

const STATE_COOKIE = 'sb_gcal';
const STATE_CONTEXT = 'google-calendar-state';
const STATE_MS = 10 * 60 * 1000;
/** The OAuth state, its user and its expiry (ms). */
interface PendingState {
  s: string;
  u: string;
  e: number;
}
const ICS_TYPE = 'text/calendar; charset=utf-8';
const icsFile = (description: string) => ({ description, content: { 'text/calendar': { schema: z.string() } } });
/** Google's answer is read as it comes: anything unexpected sends the student back with "failed". */
const googleAnswer = z.object({
  state: z.unknown().describe('The state sent to Google'),
  code: z.unknown().describe('The authorization code'),
  error: z.unknown().describe("Google's error (consent denied)"),
});
const feedParams = z.object({ file: z.string().describe('`<secret>.ics`') });

/** Calendar export: Google Calendar (OAuth on the server, tokens never leave it), .ics download and feed. */
export function calendarRoutes(ctx: AppContext) {
  const secure = ctx.config.publicUrl.startsWith('https:');
  const cookieOptions = { path: CALLBACK_PATH, httpOnly: true, sameSite: 'lax' as const, secure };
  // The state cookie is encrypted and authenticated (AES-GCM): it cannot be read or forged in the browser.
  const sealState = (v: PendingState) => encryptSecret(ctx.config.secretKey, JSON.stringify(v), STATE_CONTEXT);
  const unsealState = (box: string): PendingState | null => {
    try {
      const v = JSON.parse(decryptSecret(ctx.config.secretKey, box, STATE_CONTEXT)) as PendingState;
      return v.e > Date.now() ? v : null;
    } catch (err) {
      if (err instanceof DecryptError || err instanceof SyntaxError) return null;
      throw err;
    }
  };
  const backToCoursework = (reply: FastifyReply, outcome: CalendarReturn) =>
    reply.redirect(`${ROUTES.assignments}?${CALENDAR_RETURN_PARAM}=${outcome}`, 302);

  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    const tags = ['calendar'];
    const preValidation = signedIn;

    app.get(
      '/api/calendar/status',
      {
        preValidation,
        schema: {
          summary: 'Whether Google Calendar is configured and connected',
          tags,
          response: { 200: calendarStatusSchema, ...errorResponses },
        },
      },
      async (request) => calendarStatus(ctx, requireUser(request).id),
    );

    /** Sends the browser to Google's consent page; the state waits in a sealed cookie bound to the user. */
    app.get(
      '/api/calendar/google/authorize',
      {
        schema: {
          summary: "Sends the browser to Google's consent page",
          tags,
          response: { 302: redirect, ...errorResponses },
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        const { url, state } = await startAuthorization(ctx, user.id);
        reply.setCookie(STATE_COOKIE, sealState({ s: state, u: user.id, e: Date.now() + STATE_MS }), {
          ...cookieOptions,
          maxAge: STATE_MS / 1000,
        });
        return reply.redirect(url, 302);
      },
    );

    const callback = {
      summary: "Google's answer after consent: back to /assignments?calendar=connected|denied|failed",
      tags,
      querystring: googleAnswer,
      response: { 302: redirect, ...errorResponses },
    };
    app.get(CALLBACK_PATH, { schema: callback }, async (request, reply) => {
      googleConfig(ctx);
      const user = request.user;
      if (!user?.emailVerified) return reply.redirect(ROUTES.login, 302);
      const sealed = request.cookies[STATE_COOKIE];
      reply.clearCookie(STATE_COOKIE, cookieOptions);
      const expected = sealed ? unsealState(sealed) : null;
      const { state, code, error } = request.query;
      if (!expected || expected.u !== user.id || typeof state !== 'string' || state !== expected.s) {
        return backToCoursework(reply, CALENDAR_RETURN.failed);
      }
      if (error || typeof code !== 'string' || !code) return backToCoursework(reply, CALENDAR_RETURN.denied);
      try {
        await finishAuthorization(ctx, user.id, code);
      } catch (err) {
        if (!(err instanceof GoogleApiError || err instanceof GoogleAuthError)) throw err;
        request.log.warn({ status: err instanceof GoogleApiError ? err.status : 400 }, 'Google code exchange failed');
        return backToCoursework(reply, CALENDAR_RETURN.failed);
      }
      return backToCoursework(reply, CALENDAR_RETURN.connected);
    });

    app.delete(
      '/api/calendar/google',
      {
        preValidation,
        schema: {
          summary: 'Disconnects Google Calendar (revoking the grant when possible); 204 also when not connected',
          tags,
          response: { 204: noContent, ...errorResponses },
        },
      },
      async (request, reply) => {
        await disconnectGoogle(ctx, requireUser(request).id);
        return reply.status(204).send();
      },
    );

    app.get(
      '/api/calendar/google/calendars',
      {
        preValidation,
        schema: {
          summary: "The student's Google calendars",
          tags,
          response: { 200: googleCalendarsResponseSchema, ...errorResponses },
        },
      },
      async (request) => googleCalendars(ctx, requireUser(request).id),
    );

    app.post(
      '/api/calendar/google/export',
      {
        preValidation,
        schema: {
          summary: 'Adds coursework items to a Google calendar as events',
          tags,
          body: googleExportInputSchema,
          response: { 200: googleExportResponseSchema, ...errorResponses },
        },
      },
      async (request) => exportToGoogle(ctx, requireUser(request).id, request.body),
    );

    app.post(
      '/api/calendar/ics',
      {
        preValidation,
        schema: {
          summary: 'Coursework items as an .ics file to download',
          tags,
          body: icsExportInputSchema,
          response: { 200: icsFile('The .ics file (attachment)'), ...errorResponses },
        },
      },
      async (request, reply) => {
        const ics = await exportIcs(ctx, requireUser(request).id, request.body);
        return reply
          .header('Content-Type', ICS_TYPE)
          .header('Content-Disposition', `attachment; filename="${MSG.calendar.icsFileName}"`)
          .header('Cache-Control', 'no-store')
          .send(ics);
      },
    );

    const feed = (summary: string) => ({
      preValidation,
      schema: { summary, tags, response: { 200: calendarFeedResponseSchema, ...errorResponses } },
    });
    app.get('/api/calendar/feed', feed('The private subscription address'), async (request) =>
      getFeed(ctx, requireUser(request).id),
    );
    app.post('/api/calendar/feed', feed('A new subscription address (the old one stops working)'), async (request) =>
      regenerateFeed(ctx, requireUser(request).id),
    );
    app.delete(
      '/api/calendar/feed',
      {
        preValidation,
        schema: {
          summary: 'Revokes the subscription address',
          tags,
          response: { 204: noContent, ...errorResponses },
        },
      },
      async (request, reply) => {
        await revokeFeed(ctx, requireUser(request).id);
        return reply.status(204).send();
      },
    );

    /** The subscription feed calendar apps poll: no session, the secret in the address is the key. */
    const feedFile = {
      summary: 'The subscription feed calendar apps poll (no session: the secret in the address is the key)',
      tags,
      params: feedParams,
      response: { 200: icsFile('The coursework calendar'), ...errorResponses },
    };
    app.get('/api/calendar/feed/:file', { schema: feedFile }, async (request, reply) => {
      const match = /^(.+)\.ics$/.exec(request.params.file);
      if (!match) throw notFound();
      const ics = await feedIcs(ctx, match[1]!);
      return reply
        .header('Content-Type', ICS_TYPE)
        .header('Cache-Control', 'private, max-age=300')
        .header('Referrer-Policy', 'no-referrer')
        .header('X-Robots-Tag', 'noindex')
        .send(ics);
    });
  };
}
