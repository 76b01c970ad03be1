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
import type { AppContext } from '../../platform/context.ts';
import { errorResponses } from '../../platform/openapi.ts';
import { requireUser, signedIn } from '../../platform/session.ts';
import { muteGroup, saveSettings, settingsView, startPush, subscribe, unsubscribe } from './push.service.ts';

/** Web Push: the VAPID public key, this browser's subscription, the student's switches and muted groups. */
export function pushRoutes(ctx: AppContext) {
  return async (base: FastifyInstance) => {
    const stop = startPush(ctx);
    base.addHook('onClose', stop);
    const app = base.withTypeProvider<ZodTypeProvider>();
    const tags = ['push'];
    const security = [{ session: [] }];

    app.get(
      PUSH_API.key,
      {
        preValidation: signedIn,
        schema: {
          summary: "The server's VAPID public key (the browser's applicationServerKey)",
          tags,
          security,
          response: { 200: pushKeySchema, ...errorResponses },
        },
      },
      async (request) => {
        requireUser(request);
        return { publicKey: ctx.config.push.publicKey };
      },
    );

    app.post(
      PUSH_API.subscriptions,
      {
        preValidation: signedIn,
        schema: {
          summary: 'Turns notices on for this browser (its PushSubscription), tied to this session',
          tags,
          security,
          body: pushSubscriptionSchema,
          response: { 201: pushOkSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        await subscribe(ctx, user, request.body);
        return reply.status(201).send({ ok: true });
      },
    );

    app.delete(
      PUSH_API.subscriptions,
      {
        preValidation: signedIn,
        schema: {
          summary: 'Turns notices off for this browser',
          tags,
          security,
          body: pushUnsubscribeSchema,
          response: { 200: pushOkSchema, ...errorResponses },
        },
      },
      async (request) => {
        const user = requireUser(request);
        await unsubscribe(ctx, user.id, request.body.endpoint);
        return { ok: true as const };
      },
    );

    app.get(
      PUSH_API.settings,
      {
        preValidation: signedIn,
        schema: {
          summary: 'Which notices the student wants, and the groups they muted',
          tags,
          security,
          response: { 200: pushSettingsViewSchema, ...errorResponses },
        },
      },
      async (request) => settingsView(ctx, requireUser(request).id),
    );

    app.put(
      PUSH_API.settings,
      {
        preValidation: signedIn,
        schema: {
          summary: 'Saves which notices the student wants',
          tags,
          security,
          body: pushSettingsSchema,
          response: { 200: pushSettingsViewSchema, ...errorResponses },
        },
      },
      async (request) => saveSettings(ctx, requireUser(request).id, request.body),
    );

    app.put(
      '/api/push/groups/:id/mute',
      {
        preValidation: signedIn,
        schema: {
          summary: "Mutes or unmutes a group's message notices (members only)",
          tags,
          security,
          params: groupIdParamSchema,
          body: groupMuteSchema,
          response: { 200: pushSettingsViewSchema, ...errorResponses },
        },
      },
      async (request) => muteGroup(ctx, requireUser(request).id, request.params.id, request.body.muted),
    );
  };
}
