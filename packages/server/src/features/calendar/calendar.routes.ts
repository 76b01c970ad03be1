import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
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
import { errorResponses, noContent, redirect } from '../../platform/openapi.ts';
import { routeOptions } from '../../platform/route-options.ts';
import { signedInOnly, studentId } from '../../platform/signed-in.ts';
import { STATE_MS, type CalendarService } from './calendar.service.ts';
import { CALLBACK_PATH } from './google-calendar.service.ts';

const STATE_COOKIE = 'sb_gcal';
const ICS_TYPE = 'text/calendar; charset=utf-8';
const tags = ['calendar'];
const route = routeOptions(tags);
const icsFile = (description: string) => ({ description, content: { 'text/calendar': { schema: z.string() } } });
/** Google's answer is read as it comes: anything unexpected sends the student back with "failed". */
const googleAnswer = z.object({
  state: z.unknown().describe('The state sent to Google'),
  code: z.unknown().describe('The authorization code'),
  error: z.unknown().describe("Google's error (consent denied)"),
});
const feedParams = z.object({ file: z.string().describe('`<secret>.ics`') });
const stateCookie = (secure: boolean) => ({ path: CALLBACK_PATH, httpOnly: true, sameSite: 'lax' as const, secure });
const backToCoursework = (reply: FastifyReply, outcome: CalendarReturn) =>
  reply.redirect(`${ROUTES.assignments}?${CALENDAR_RETURN_PARAM}=${outcome}`, 302);

/** Google Calendar for the signed-in student: status, consent, disconnect, their calendars, export. */
function googleRoutes(calendar: CalendarService, secure: boolean) {
  return async (base: FastifyInstance) => {
    signedInOnly(base);
    const app = base.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/api/calendar/status',
      route('Whether Google Calendar is configured and connected', { response: { 200: calendarStatusSchema } }),
      async (request) => calendar.status(studentId(request)),
    );

    /** Sends the browser to Google's consent page; the state waits in a sealed cookie bound to the user. */
    app.get(
      '/api/calendar/google/authorize',
      route("Sends the browser to Google's consent page", { response: { 302: redirect } }),
      async (request, reply) => {
        const { url, sealedState } = await calendar.authorize(studentId(request));
        reply.setCookie(STATE_COOKIE, sealedState, { ...stateCookie(secure), maxAge: STATE_MS / 1000 });
        return reply.redirect(url, 302);
      },
    );

    app.delete(
      '/api/calendar/google',
      route('Disconnects Google Calendar (revoking the grant when possible); 204 also when not connected', {
        response: { 204: noContent },
      }),
      async (request, reply) => {
        await calendar.disconnect(studentId(request));
        return reply.status(204).send();
      },
    );

    app.get(
      '/api/calendar/google/calendars',
      route("The student's Google calendars", { response: { 200: googleCalendarsResponseSchema } }),
      async (request) => calendar.calendars(studentId(request)),
    );

    app.post(
      '/api/calendar/google/export',
      route('Adds coursework items to a Google calendar as events', {
        body: googleExportInputSchema,
        response: { 200: googleExportResponseSchema },
      }),
      async (request) => calendar.exportToGoogle(studentId(request), request.body),
    );
  };
}

/** The .ics download and the private subscription address, for the signed-in student. */
function icsRoutes(calendar: CalendarService) {
  return async (base: FastifyInstance) => {
    signedInOnly(base);
    const app = base.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/api/calendar/ics',
      route('Coursework items as an .ics file to download', {
        body: icsExportInputSchema,
        response: { 200: icsFile('The .ics file (attachment)') },
      }),
      async (request, reply) => {
        const ics = await calendar.exportIcs(studentId(request), request.body);
        return reply
          .header('Content-Type', ICS_TYPE)
          .header('Content-Disposition', `attachment; filename="${MSG.calendar.icsFileName}"`)
          .header('Cache-Control', 'no-store')
          .send(ics);
      },
    );

    const feed = (summary: string) => ({
      schema: { summary, tags, response: { 200: calendarFeedResponseSchema, ...errorResponses } },
    });
    app.get('/api/calendar/feed', feed('The private subscription address'), async (request) =>
      calendar.feed(studentId(request)),
    );
    app.post('/api/calendar/feed', feed('A new subscription address (the old one stops working)'), async (request) =>
      calendar.regenerateFeed(studentId(request)),
    );
    app.delete(
      '/api/calendar/feed',
      route('Revokes the subscription address', { response: { 204: noContent } }),
      async (request, reply) => {
        await calendar.revokeFeed(studentId(request));
        return reply.status(204).send();
      },
    );
  };
}

/** What comes without the signed-in hook: Google's redirect back (a signed-out browser goes to log in) and the feed. */
function openRoutes(calendar: CalendarService, secure: boolean) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    const callback = {
      summary: "Google's answer after consent: back to /assignments?calendar=connected|denied|failed",
      tags,
      querystring: googleAnswer,
      response: { 302: redirect, ...errorResponses },
    };
    app.get(CALLBACK_PATH, { schema: callback }, async (request, reply) => {
      calendar.requireGoogle();
      const user = request.user;
      if (!user?.emailVerified) return reply.redirect(ROUTES.login, 302);
      const sealed = request.cookies[STATE_COOKIE];
      reply.clearCookie(STATE_COOKIE, stateCookie(secure));
      return backToCoursework(reply, await calendar.finishAuthorization(user.id, sealed, request.query, request.log));
    });

    /** The subscription feed calendar apps poll: no session, the secret in the address is the key. */
    const feedFile = {
      summary: 'The subscription feed calendar apps poll (no session: the secret in the address is the key)',
      tags,
      params: feedParams,
      response: { 200: icsFile('The coursework calendar'), ...errorResponses },
    };
    app.get('/api/calendar/feed/:file', { schema: feedFile }, async (request, reply) => {
      const ics = await calendar.feedFile(request.params.file);
      return reply
        .header('Content-Type', ICS_TYPE)
        .header('Cache-Control', 'private, max-age=300')
        .header('Referrer-Policy', 'no-referrer')
        .header('X-Robots-Tag', 'noindex')
        .send(ics);
    });
  };
}

/** Calendar export: Google Calendar (OAuth on the server, tokens never leave it), .ics download and feed. */
export function calendarRoutes(calendar: CalendarService, options: { secure: boolean }) {
  return async (app: FastifyInstance) => {
    await app.register(googleRoutes(calendar, options.secure));
    await app.register(icsRoutes(calendar));
    await app.register(openRoutes(calendar, options.secure));
  };
}
