import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  groupIdParamSchema,
  groupMuteSchema,
  pushSettingsSchema,
  pushSubscriptionSchema,
  pushUnsubscribeSchema,
} from '@studybuddy/shared/push';
import { PUSH_API } from '@studybuddy/shared/push-api';
import { pushKeySchema, pushOkSchema, pushSettingsViewSchema } from '@studybuddy/shared/push-responses';
import { errorResponses } from '../../platform/openapi.ts';
import { requireUser } from '../../platform/session.ts';
import { signedInOnly, studentId } from '../../platform/signed-in.ts';
import type { PushService } from './push.service.ts';

/** Web Push: the VAPID public key, this browser's subscription, the student's switches and muted groups. */
export function pushRoutes(push: PushService) {
  return async (base: FastifyInstance) => {
    signedInOnly(base);
    const app = base.withTypeProvider<ZodTypeProvider>();
    const tags = ['push'];
    const security = [{ session: [] }];

    app.get(
      PUSH_API.key,
      {
        schema: {
          summary: "The server's VAPID public key (the browser's applicationServerKey)",
          tags,
          security,
          response: { 200: pushKeySchema, ...errorResponses },
        },
      },
      async () => ({ publicKey: push.publicKey() }),
    );

    app.post(
      PUSH_API.subscriptions,
      {
        schema: {
          summary: 'Turns notices on for this browser (its PushSubscription), tied to this session',
          tags,
          security,
          body: pushSubscriptionSchema,
          response: { 201: pushOkSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        await push.subscribe(requireUser(request), request.body);
        return reply.status(201).send({ ok: true });
      },
    );

    app.delete(
      PUSH_API.subscriptions,
      {
        schema: {
          summary: 'Turns notices off for this browser',
          tags,
          security,
          body: pushUnsubscribeSchema,
          response: { 200: pushOkSchema, ...errorResponses },
        },
      },
      async (request) => {
        await push.unsubscribe(studentId(request), request.body.endpoint);
        return { ok: true as const };
      },
    );

    app.get(
      PUSH_API.settings,
      {
        schema: {
          summary: 'Which notices the student wants, and the groups they muted',
          tags,
          security,
          response: { 200: pushSettingsViewSchema, ...errorResponses },
        },
      },
      async (request) => push.settingsView(studentId(request)),
    );

    app.put(
      PUSH_API.settings,
      {
        schema: {
          summary: 'Saves which notices the student wants',
          tags,
          security,
          body: pushSettingsSchema,
          response: { 200: pushSettingsViewSchema, ...errorResponses },
        },
      },
      async (request) => push.saveSettings(studentId(request), request.body),
    );

    app.put(
      '/api/push/groups/:id/mute',
      {
        schema: {
          summary: "Mutes or unmutes a group's message notices (members only)",
          tags,
          security,
          params: groupIdParamSchema,
          body: groupMuteSchema,
          response: { 200: pushSettingsViewSchema, ...errorResponses },
        },
      },
      async (request) => push.muteGroup(studentId(request), request.params.id, request.body.muted),
    );
  };
}
