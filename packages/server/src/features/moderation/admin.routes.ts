import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminActionInputSchema,
  adminActionResultSchema,
  adminMeSchema,
  auditLogSchema,
  feedbackInboxSchema,
  reportQueueQuerySchema,
  reportQueueSchema,
  studentSearchQuerySchema,
  studentSearchSchema,
} from '@studybuddy/shared/moderation';
import type { AppContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { errorResponses } from '../../platform/openapi.ts';
import { routeOptions } from '../../platform/route-options.ts';
import type { AdminService } from './admin.service.ts';
import { isAdmin, type Actor } from './admins.service.ts';

const id = z.string().min(1).max(300);
const idParams = z.object({ id });
const tags = ['admin'];
const route = routeOptions(tags);
const action = { 200: adminActionResultSchema, ...errorResponses };

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in admin, set by the admin area's guard. */
    admin?: Actor;
  }
}

/** The admin the guard let through (404 for anyone else). */
const actor = (request: FastifyRequest): Actor => {
  if (!request.admin) throw notFound();
  return request.admin;
};

/** What the admin reads: themselves, the report queue (and resolving a report), feedback, students. */
const queueRoutes = (admin: AdminService) => async (base: FastifyInstance) => {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/admin/me',
    route('The signed-in admin (404 for everyone else)', { response: { 200: adminMeSchema } }),
    async (request) => ({ email: actor(request).email }),
  );

  app.get(
    '/api/admin/reports',
    route('The report queue: open reports oldest first, or resolved ones', {
      querystring: reportQueueQuerySchema,
      response: { 200: reportQueueSchema },
    }),
    async (request) => {
      actor(request);
      return admin.reports(request.query.status);
    },
  );

  app.post(
    '/api/admin/reports/:id/resolve',
    {
      schema: {
        summary: 'Resolves a report without further action',
        tags,
        params: idParams,
        body: adminActionInputSchema,
        response: action,
      },
    },
    async (request) => admin.resolveReport(actor(request), request.params.id, request.body),
  );

  app.get(
    '/api/admin/feedback',
    route('The feedback inbox, newest first', { response: { 200: feedbackInboxSchema } }),
    async (request) => {
      actor(request);
      return admin.feedback();
    },
  );

  app.get(
    '/api/admin/students',
    route('Students whose e-mail or name contains the query, at any college', {
      querystring: studentSearchQuerySchema,
      response: { 200: studentSearchSchema },
    }),
    async (request) => {
      actor(request);
      return admin.searchStudents(request.query.q);
    },
  );
};

/** The actions on students, messages and groups, each audited; and the audit log. */
const actionRoutes = (admin: AdminService) => async (base: FastifyInstance) => {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/admin/students/:id/disable',
    {
      schema: {
        summary: 'Disables an account: every session and socket ends at once',
        tags,
        params: idParams,
        body: adminActionInputSchema,
        response: action,
      },
    },
    async (request) => admin.setDisabled(actor(request), request.params.id, true, request.body),
  );

  app.post(
    '/api/admin/students/:id/enable',
    {
      schema: {
        summary: 'Enables a disabled account',
        tags,
        params: idParams,
        body: adminActionInputSchema,
        response: action,
      },
    },
    async (request) => admin.setDisabled(actor(request), request.params.id, false, request.body),
  );

  app.post(
    '/api/admin/messages/:id/delete',
    {
      schema: {
        summary: 'Deletes a message of any conversation (reports keep their copy)',
        tags,
        params: idParams,
        body: adminActionInputSchema,
        response: action,
      },
    },
    async (request) => admin.deleteMessage(actor(request), request.params.id, request.body),
  );

  app.post(
    '/api/admin/groups/:groupId/members/:userId/remove',
    {
      schema: {
        summary: 'Removes a student from a group',
        tags,
        params: z.object({ groupId: id, userId: id }),
        body: adminActionInputSchema,
        response: action,
      },
    },
    async (request) =>
      admin.removeFromGroup(actor(request), request.params.groupId, request.params.userId, request.body),
  );

  app.get(
    '/api/admin/audit',
    route('The audit log, newest first (append-only: no route changes it)', { response: { 200: auditLogSchema } }),
    async (request) => {
      actor(request);
      return admin.auditLog();
    },
  );
};

/**
 * The admin area's API (issue 24 point 3), `/api/admin/*`: every route answers 404, exactly like a path that does
 * not exist, to anyone who is not a signed-in admin — before the input is even looked at. Listed in the API docs.
 */
export function adminRoutes(ctx: AppContext, admin: AdminService) {
  return async (base: FastifyInstance) => {
    base.addHook('onRequest', async (request) => {
      const user = request.user;
      if (!user?.emailVerified || !(await isAdmin(ctx, user))) throw notFound();
      request.admin = { id: user.id, email: user.email };
    });
    await base.register(queueRoutes(admin));
    await base.register(actionRoutes(admin));
  };
}
