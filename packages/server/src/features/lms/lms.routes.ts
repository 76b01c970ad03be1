import type { FastifyInstance } from 'fastify';
import { perMinute } from '../../platform/rate-limit-presets.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  connectInputSchema,
  fetchCanvasCoursesInputSchema,
  fetchCourseworkInputSchema,
  timeZoneSchema,
} from '@studybuddy/shared/lms';
import {
  connectResponseSchema,
  courseworkResponseSchema,
  fetchCanvasCoursesResponseSchema,
  lmsStatusSchema,
} from '@studybuddy/shared/lms-responses';
import type { AppContext } from '../../platform/context.ts';
import { noContent } from '../../platform/openapi.ts';
import { routeOptions } from '../../platform/route-options.ts';
import { signedInOnly, studentId } from '../../platform/signed-in.ts';
import type { LmsService } from './canvas-link.service.ts';

/** Each connect checks a token with Canvas: a few a minute per student is plenty. */
const CANVAS_CONNECTS_PER_MINUTE = 10;

const statusQuery = z.object({ tz: timeZoneSchema.optional() });

/**
 * The LMS API. The Canvas token goes in once (connect) and never comes back out: no response carries it,
 * and the §7 calls use the stored one when the body has none.
 */
export function lmsRoutes(ctx: AppContext, lms: LmsService) {
  const connectLimit = perMinute(ctx.config.rateLimits, CANVAS_CONNECTS_PER_MINUTE);
  return async (base: FastifyInstance) => {
    signedInOnly(base);
    const app = base.withTypeProvider<ZodTypeProvider>();
    const route = routeOptions(['lms']);

    app.get(
      '/api/lms/status',
      route('Whether Canvas is connected (and forced refreshes left today in the time zone `tz`)', {
        querystring: statusQuery,
        response: { 200: lmsStatusSchema },
      }),
      async (request) => lms.status(studentId(request), request.query.tz),
    );

    app.post(
      '/api/lms/connect',
      route(
        'Connects Canvas with an access token (checked with Canvas, stored, never answered back)',
        { body: connectInputSchema, response: { 200: connectResponseSchema } },
        connectLimit,
      ),
      async (request) => lms.connect(studentId(request), request.body.access_token),
    );

    app.post(
      '/api/lms/disconnect',
      route('Forgets the stored Canvas token', { response: { 204: noContent } }),
      async (request, reply) => {
        await lms.disconnect(studentId(request));
        return reply.status(204).send();
      },
    );

    app.post(
      '/api/fetch-canvas-courses',
      route(
        "§7 call 1: the student's Canvas courses",
        { body: fetchCanvasCoursesInputSchema, response: { 200: fetchCanvasCoursesResponseSchema } },
        connectLimit,
      ),
      async (request) => lms.fetchCourses(studentId(request), request.body),
    );

    app.post(
      '/api/fetch-coursework',
      route('§7 call 2: the coursework of the chosen (or profile) courses, cached or fresh from Canvas', {
        body: fetchCourseworkInputSchema,
        response: { 200: courseworkResponseSchema },
      }),
      async (request) => lms.loadCoursework(studentId(request), request.body),
    );
  };
}
