import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  connectInputSchema,
  fetchCanvasCoursesInputSchema,
  fetchCourseworkInputSchema,
  timeZoneSchema,
} from '@studybuddy/shared/lms';
import type { AppContext } from '../../platform/context.ts';
import { parse } from '../../platform/errors.ts';
import { requireUser } from '../auth/session.ts';
import { loadCoursework } from './coursework.service.ts';
import { connectCanvas, disconnectCanvas, fetchCanvasCourses, lmsStatus } from './lms.service.ts';

const statusQuery = z.object({ tz: timeZoneSchema.optional() });

/**
 * The LMS API. The Canvas token goes in once (connect) and never comes back out: no response carries it,
 * and the §7 calls use the stored one when the body has none.
 */
export function lmsRoutes(ctx: AppContext) {
  // Each connect checks a token with Canvas: a few a minute per user is plenty.
  const connectLimit: FastifyContextConfig = {
    rateLimit: ctx.config.rateLimits
      ? { max: 10, timeWindow: '1 minute', keyGenerator: (r: FastifyRequest) => r.user?.id ?? r.ip }
      : false,
  };
  return async (app: FastifyInstance) => {
    app.get('/api/lms/status', async (request) => {
      const user = requireUser(request);
      const { tz } = parse(statusQuery, request.query);
      return lmsStatus(ctx, user.id, tz);
    });

    app.post('/api/lms/connect', { config: connectLimit }, async (request) => {
      const user = requireUser(request);
      const input = parse(connectInputSchema, request.body);
      return connectCanvas(ctx, user.id, input.access_token);
    });

    app.post('/api/lms/disconnect', async (request, reply) => {
      const user = requireUser(request);
      await disconnectCanvas(ctx, user.id);
      return reply.status(204).send();
    });

    app.post('/api/fetch-canvas-courses', { config: connectLimit }, async (request) => {
      const user = requireUser(request);
      return fetchCanvasCourses(ctx, user.id, parse(fetchCanvasCoursesInputSchema, request.body));
    });

    app.post('/api/fetch-coursework', async (request) => {
      const user = requireUser(request);
      return loadCoursework(ctx, user.id, parse(fetchCourseworkInputSchema, request.body));
    });
  };
}
