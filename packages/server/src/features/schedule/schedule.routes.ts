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
import { requireUser, signedIn } from '../../platform/session.ts';
import type { ScheduleImports } from './schedule-import.service.ts';
import type { ScheduleService } from './schedule.service.ts';

const groupParams = z.object({ groupId: z.string().min(1).max(200) });
const friendParams = z.object({ friendId: z.string().min(1).max(200) });
/** A 2 MB calendar as a JSON string (line breaks escaped); the service refuses past 2 MB with its own message. */
const FILE_BODY_LIMIT = 6 * 1024 * 1024;

export function scheduleRoutes(schedule: ScheduleService, imports: ScheduleImports) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    const tags = ['schedule'];
    const preValidation = signedIn;

    app.get(
      '/api/schedule',
      {
        preValidation,
        schema: {
          summary: 'My week, import and busy times',
          tags,
          response: { 200: myScheduleSchema, ...errorResponses },
        },
      },
      async (request) => schedule.mine(requireUser(request).id),
    );

    app.put(
      '/api/schedule/week',
      {
        preValidation,
        schema: {
          summary: 'Saves my week (336 half-hour cells in my time zone)',
          tags,
          body: saveWeekInputSchema,
          response: { 200: myScheduleSchema, ...errorResponses },
        },
      },
      async (request) => schedule.saveWeek(requireUser(request).id, request.body),
    );

    app.post(
      '/api/schedule/import/file',
      {
        preValidation,
        bodyLimit: FILE_BODY_LIMIT,
        schema: {
          summary: 'Imports busy times from an .ics file',
          tags,
          body: importFileInputSchema,
          response: { 200: importResultSchema, ...errorResponses },
        },
      },
      async (request) => imports.fromFile(requireUser(request).id, request.body),
    );

    app.post(
      '/api/schedule/import/url',
      {
        preValidation,
        schema: {
          summary: 'Imports busy times from an https .ics address, read again daily',
          tags,
          body: importUrlInputSchema,
          response: { 200: importResultSchema, ...errorResponses },
        },
      },
      async (request) => imports.fromUrl(requireUser(request).id, request.body.url),
    );

    app.delete(
      '/api/schedule/import',
      {
        preValidation,
        schema: { summary: 'Removes the import', tags, response: { 200: importResultSchema, ...errorResponses } },
      },
      async (request) => imports.remove(requireUser(request).id),
    );

    app.put(
      '/api/schedule/overrides',
      {
        preValidation,
        schema: {
          summary: 'Marks an imported busy time (or its series) free, or busy again',
          tags,
          body: overrideInputSchema,
          response: { 200: myScheduleSchema, ...errorResponses },
        },
      },
      async (request) => schedule.setOverride(requireUser(request).id, request.body.key, request.body.free),
    );

    app.get(
      '/api/groups/:groupId/find-a-time',
      {
        preValidation,
        schema: {
          summary: "Find a time: the group's free members per half hour (next two weeks) and the best slots",
          tags,
          params: groupParams,
          querystring: findATimeQuerySchema,
          response: { 200: findATimeResultSchema, ...errorResponses },
        },
      },
      async (request) => schedule.findATimeForGroup(requireUser(request).id, request.params.groupId, request.query),
    );

    app.get(
      '/api/friends/:friendId/find-a-time',
      {
        preValidation,
        schema: {
          summary: 'Find a time with a friend',
          tags,
          params: friendParams,
          querystring: findATimeQuerySchema,
          response: { 200: findATimeResultSchema, ...errorResponses },
        },
      },
      async (request) => schedule.findATimeWithFriend(requireUser(request).id, request.params.friendId, request.query),
    );
  };
}
