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
import { routeOptions } from '../../platform/route-options.ts';
import { requireUser } from '../../platform/session.ts';
import { signedInOnly, studentId } from '../../platform/signed-in.ts';
import type { PushService } from './push.service.ts';

/** Web Push: the VAPID public key, this browser's subscription, the student's switches and muted groups. */
export function pushRoutes(push: PushService) {
  return async (base: FastifyInstance) => {
    signedInOnly(base);
    const app = base.withTypeProvider<ZodTypeProvider>();
    const route = routeOptions(['push']);
    const security = [{ session: [] }];

    app.get(
      PUSH_API.key,
      route("The server's VAPID public key (the browser's applicationServerKey)", {
        security,
        response: { 200: pushKeySchema },
      }),
      async () => ({ publicKey: push.publicKey() }),
    );

    app.post(
      PUSH_API.subscriptions,
      route('Turns notices on for this browser (its PushSubscription), tied to this session', {
        security,
        body: pushSubscriptionSchema,
        response: { 201: pushOkSchema },
      }),
      async (request, reply) => {
        await push.subscribe(requireUser(request), request.body);
        return reply.status(201).send({ ok: true });
      },
    );

    app.delete(
      PUSH_API.subscriptions,
      route('Turns notices off for this browser', {
        security,
        body: pushUnsubscribeSchema,
        response: { 200: pushOkSchema },
      }),
      async (request) => {
        await push.unsubscribe(studentId(request), request.body.endpoint);
        return { ok: true as const };
      },
    );

    app.get(
      PUSH_API.settings,
      route('Which notices the student wants, and the groups they muted', {
        security,
        response: { 200: pushSettingsViewSchema },
      }),
      async (request) => push.settingsView(studentId(request)),
    );

    app.put(
      PUSH_API.settings,
      route('Saves which notices the student wants', {
        security,
        body: pushSettingsSchema,
        response: { 200: pushSettingsViewSchema },
      }),
      async (request) => push.saveSettings(studentId(request), request.body),
    );

    app.put(
      '/api/push/groups/:id/mute',
      route("Mutes or unmutes a group's message notices (members only)", {
        security,
        params: groupIdParamSchema,
        body: groupMuteSchema,
        response: { 200: pushSettingsViewSchema },
      }),
      async (request) => push.muteGroup(studentId(request), request.params.id, request.body.muted),
    );
  };
}
