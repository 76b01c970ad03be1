import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createStudySessionSchema,
  presenceSchema,
  roomStateSchema,
  rsvpSchema,
  studySessionFieldsSchema,
  studySessionListQuerySchema,
  studySessionListSchema,
  studySessionSchema,
  timerActionSchema,
} from '@studybuddy/shared/study-sessions';
import type { AppContext } from '../../platform/context.ts';
import { errorResponses, noContent } from '../../platform/openapi.ts';
import { requireUser, signedIn } from '../../platform/session.ts';
import { entriesIcs } from '../calendar/ics-export.service.ts';
import * as room from './study-room.service.ts';
import type { StudySessionsService } from './study-sessions.service.ts';

const idParams = z.object({ id: z.uuid() });
const ICS_TYPE = 'text/calendar; charset=utf-8';
/** Actions that take nothing: an empty JSON object. */
const emptyBody = z.object({});

/** Study sessions and their rooms (issue 27 points 3 and 4); every route for members of the session's conversation. */
export function studySessionsRoutes(ctx: AppContext, sessions: StudySessionsService) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    const tags = ['study sessions'];
    const preValidation = signedIn;
    const one = (summary: string) => ({
      summary,
      tags,
      params: idParams,
      response: { 200: studySessionSchema, ...errorResponses },
    });

    app.post(
      '/api/study-sessions',
      {
        preValidation,
        schema: {
          summary: 'Plans a study session in a group or a chat the student is in',
          tags,
          body: createStudySessionSchema,
          response: { 201: studySessionSchema, ...errorResponses },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await sessions.createSession(requireUser(request).id, request.body)),
    );

    app.get(
      '/api/study-sessions',
      {
        preValidation,
        schema: {
          summary: "A conversation's sessions not over yet (kind and id), or else the student's own (Going, Maybe)",
          tags,
          querystring: studySessionListQuerySchema,
          response: { 200: studySessionListSchema, ...errorResponses },
        },
      },
      async (request) => {
        const userId = requireUser(request).id;
        const { kind, id } = request.query;
        return {
          sessions: kind && id ? await sessions.listSessions(userId, { kind, id }) : await sessions.mySessions(userId),
        };
      },
    );

    app.get('/api/study-sessions/:id', { preValidation, schema: one('A study session') }, async (request) =>
      sessions.getSession(requireUser(request).id, request.params.id),
    );

    app.put(
      '/api/study-sessions/:id',
      { preValidation, schema: { ...one('Changes a session (its planner)'), body: studySessionFieldsSchema } },
      async (request) => sessions.updateSession(requireUser(request).id, request.params.id, request.body),
    );

    app.post(
      '/api/study-sessions/:id/cancel',
      { preValidation, schema: { ...one('Cancels a session (its planner); the attendees are told'), body: emptyBody } },
      async (request) => sessions.cancelSession(requireUser(request).id, request.params.id),
    );

    app.put(
      '/api/study-sessions/:id/rsvp',
      { preValidation, schema: { ...one("Answers Going, Maybe or Can't"), body: rsvpSchema } },
      async (request) => sessions.answer(requireUser(request).id, request.params.id, request.body.answer),
    );

    app.get(
      '/api/study-sessions/:id/ics',
      {
        preValidation,
        schema: {
          summary: 'The session as an .ics file',
          tags,
          params: idParams,
          response: {
            200: { description: 'The .ics file', content: { 'text/calendar': { schema: z.string() } } },
            ...errorResponses,
          },
        },
      },
      async (request, reply) => {
        const userId = requireUser(request).id;
        const session = await sessions.getSession(userId, request.params.id);
        const ics = entriesIcs([await sessions.entryOf(session.id)]);
        return reply
          .header('Content-Type', ICS_TYPE)
          .header('Content-Disposition', 'attachment; filename="study-session.ics"')
          .header('Cache-Control', 'no-store')
          .send(ics);
      },
    );

    const roomSchema = (summary: string) => ({
      summary,
      tags,
      params: idParams,
      response: { 200: roomStateSchema, ...errorResponses },
    });
    app.get(
      '/api/study-sessions/:id/room',
      { preValidation, schema: roomSchema('The room: who is here, the timer') },
      async (request) => room.getRoom(ctx, requireUser(request).id, request.params.id),
    );
    app.post(
      '/api/study-sessions/:id/room/presence',
      {
        preValidation,
        schema: { ...roomSchema('The student is in the room (every 15 s), with their goal'), body: presenceSchema },
      },
      async (request) => room.report(ctx, requireUser(request).id, request.params.id, request.body),
    );
    app.delete(
      '/api/study-sessions/:id/room/presence',
      {
        preValidation,
        schema: {
          summary: 'The student left the room',
          tags,
          params: idParams,
          response: { 204: noContent, ...errorResponses },
        },
      },
      async (request, reply) => {
        await room.leave(ctx, requireUser(request).id, request.params.id);
        return reply.status(204).send();
      },
    );
    app.post(
      '/api/study-sessions/:id/timer',
      { preValidation, schema: { ...roomSchema('Starts or pauses the timer (the planner)'), body: timerActionSchema } },
      async (request) => room.setTimer(ctx, requireUser(request).id, request.params.id, request.body.action),
    );
    app.post(
      '/api/study-sessions/:id/end',
      {
        preValidation,
        schema: { ...roomSchema('Ends the session and posts the recap (the planner)'), body: emptyBody },
      },
      async (request) => room.endSession(ctx, requireUser(request).id, request.params.id),
    );
  };
}
