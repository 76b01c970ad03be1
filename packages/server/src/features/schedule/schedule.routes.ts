import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  findATimeQuerySchema,
  findATimeResultSchema,
  importFileInputSchema,
  importResultSchema,
  importUrlInputSchema,
  myScheduleSchema,
  overrideInputSchema,
  saveWeekInputSchema,
} from '@studybuddy/shared/schedule';
import { errorResponses } from '../../platform/openapi.ts';
import { routeOptions } from '../../platform/route-options.ts';
import { signedInOnly, studentId } from '../../platform/signed-in.ts';
import type { ScheduleImports } from './schedule-import.service.ts';
import type { ScheduleService } from './schedule.service.ts';

const groupParams = z.object({ groupId: z.string().min(1).max(200) });
const friendParams = z.object({ friendId: z.string().min(1).max(200) });
/** A 2 MB calendar as a JSON string (line breaks escaped); the service refuses past 2 MB with its own message. */
const FILE_BODY_LIMIT = 6 * 1024 * 1024;

export function scheduleRoutes(schedule: ScheduleService, imports: ScheduleImports) {
  return async (base: FastifyInstance) => {
    signedInOnly(base);
    const app = base.withTypeProvider<ZodTypeProvider>();
    const tags = ['schedule'];
    const route = routeOptions(tags);

    app.get(
      '/api/schedule',
      route('My week, import and busy times', { response: { 200: myScheduleSchema } }),
      async (request) => schedule.mine(studentId(request)),
    );

    app.put(
      '/api/schedule/week',
      route('Saves my week (336 half-hour cells in my time zone)', {
        body: saveWeekInputSchema,
        response: { 200: myScheduleSchema },
      }),
      async (request) => schedule.saveWeek(studentId(request), request.body),
    );

    app.post(
      '/api/schedule/import/file',
      {
        bodyLimit: FILE_BODY_LIMIT,
        schema: {
          summary: 'Imports busy times from an .ics file',
          tags,
          body: importFileInputSchema,
          response: { 200: importResultSchema, ...errorResponses },
        },
      },
      async (request) => imports.fromFile(studentId(request), request.body),
    );

    app.post(
      '/api/schedule/import/url',
      route('Imports busy times from an https .ics address, read again daily', {
        body: importUrlInputSchema,
        response: { 200: importResultSchema },
      }),
      async (request) => imports.fromUrl(studentId(request), request.body.url),
    );

    app.delete(
      '/api/schedule/import',
      route('Removes the import', { response: { 200: importResultSchema } }),
      async (request) => imports.remove(studentId(request)),
    );

    app.put(
      '/api/schedule/overrides',
      route('Marks an imported busy time (or its series) free, or busy again', {
        body: overrideInputSchema,
        response: { 200: myScheduleSchema },
      }),
      async (request) => schedule.setOverride(studentId(request), request.body.key, request.body.free),
    );

    app.get(
      '/api/groups/:groupId/find-a-time',
      route("Find a time: the group's free members per half hour (next two weeks) and the best slots", {
        params: groupParams,
        querystring: findATimeQuerySchema,
        response: { 200: findATimeResultSchema },
      }),
      async (request) => schedule.findATimeForGroup(studentId(request), request.params.groupId, request.query),
    );

    app.get(
      '/api/friends/:friendId/find-a-time',
      route('Find a time with a friend', {
        params: friendParams,
        querystring: findATimeQuerySchema,
        response: { 200: findATimeResultSchema },
      }),
      async (request) => schedule.findATimeWithFriend(studentId(request), request.params.friendId, request.query),
    );
  };
}
