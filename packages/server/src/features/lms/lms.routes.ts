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
import { errorResponses, noContent } from '../../platform/openapi.ts';
import { requireUser, signedIn } from '../../platform/session.ts';
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
    const app = base.withTypeProvider<ZodTypeProvider>();
    const tags = ['lms'];
    const preValidation = signedIn;

    app.get(
      '/api/lms/status',
      {
        preValidation,
        schema: {
          summary: 'Whether Canvas is connected (and forced refreshes left today in the time zone `tz`)',
          tags,
          querystring: statusQuery,
          response: { 200: lmsStatusSchema, ...errorResponses },
        },
      },
      async (request) => lms.status(requireUser(request).id, request.query.tz),
    );

    app.post(
      '/api/lms/connect',
      {
        config: connectLimit,
        preValidation,
        schema: {
          summary: 'Connects Canvas with an access token (checked with Canvas, stored, never answered back)',
          tags,
          body: connectInputSchema,
          response: { 200: connectResponseSchema, ...errorResponses },
        },
      },
      async (request) => lms.connect(requireUser(request).id, request.body.access_token),
    );

    app.post(
      '/api/lms/disconnect',
      {
        preValidation,
        schema: {
          summary: 'Forgets the stored Canvas token',
          tags,
          response: { 204: noContent, ...errorResponses },
        },
      },
      async (request, reply) => {
        await lms.disconnect(requireUser(request).id);
        return reply.status(204).send();
      },
    );

    app.post(
      '/api/fetch-canvas-courses',
      {
        config: connectLimit,
        preValidation,
        schema: {
          summary: "§7 call 1: the student's Canvas courses",
          tags,
          body: fetchCanvasCoursesInputSchema,
          response: { 200: fetchCanvasCoursesResponseSchema, ...errorResponses },
        },
      },
      async (request) => lms.fetchCourses(requireUser(request).id, request.body),
    );

    app.post(
      '/api/fetch-coursework',
      {
        preValidation,
        schema: {
          summary: '§7 call 2: the coursework of the chosen (or profile) courses, cached or fresh from Canvas',
          tags,
          body: fetchCourseworkInputSchema,
          response: { 200: courseworkResponseSchema, ...errorResponses },
        },
      },
      async (request) => lms.loadCoursework(requireUser(request).id, request.body),
    );
  };
}
