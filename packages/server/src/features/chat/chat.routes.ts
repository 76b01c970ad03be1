import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ATTACHMENT_KINDS,
  CHAT_LIMITS,
  editMessageSchema,
  historyQuerySchema,
  markReadSchema,
  sendMessageSchema,
  type ConversationKind,
} from '@studybuddy/shared/chat';
import {
  attachmentResultSchema,
  chatInfoSchema,
  chatListSchema,
  messagePageSchema,
  messageResultSchema,
  readResultSchema,
  sendMessageResultSchema,
  unreadCountsSchema,
} from '@studybuddy/shared/chat-responses';
import { reactSchema } from '@studybuddy/shared/message-extras';
import type { AppContext } from '../../platform/context.ts';
import { routeOptions } from '../../platform/route-options.ts';
import { signedInOnly, studentId } from '../../platform/signed-in.ts';
import { perMinute } from '../../platform/rate-limit-presets.ts';
import { requireUser } from '../../platform/session.ts';
import { storeAttachment } from './attachments.service.ts';
import { chatInfo, listChats, unreadCounts } from './chat.service.ts';
import { deleteOwnMessage, editOwnMessage, history, markRead, type MessagesService } from './messages.service.ts';
import { react } from './reactions.service.ts';

const idParams = z.object({ id: z.string().min(1).max(300) });
const messageParams = idParams.extend({ messageId: z.string().min(1).max(300) });
const attachmentQuery = z.object({ kind: z.enum(ATTACHMENT_KINDS) });
/** Reactions a student may add or take back a minute, per conversation kind (a burst past it: 429). */
export const REACTIONS_PER_MINUTE = 120;

/** The messages routes of one conversation kind: /api/chats/:id/… and /api/groups/:id/…. */
function conversationRoutes(ctx: AppContext, messages: MessagesService, kind: ConversationKind, base: string) {
  const perUser = (max: number) => perMinute(ctx.config.rateLimits, max);
  const route = routeOptions([kind === 'chat' ? 'chats' : 'groups']);

  return async (plugin: FastifyInstance) => {
    const app = plugin.withTypeProvider<ZodTypeProvider>();
    app.get(
      `${base}/:id/messages`,
      route(`A page of the ${kind}'s messages`, {
        params: idParams,
        querystring: historyQuerySchema,
        response: { 200: messagePageSchema },
      }),
      async (request) => history(ctx, studentId(request), { kind, id: request.params.id }, request.query),
    );

    // Clients send over the socket (`send` op, chat.socket.ts); the web app uses this route only while the socket
    // cannot open and it polls (a network that blocks WebSockets). A thin call to the same service, whose per-minute
    // limit and idempotent id apply to both; journeys and benches seed with it too.
    app.post(
      `${base}/:id/messages`,
      route(`Sends a message to the ${kind} (idempotent by the message id; clients use the socket's send op)`, {
        params: idParams,
        body: sendMessageSchema,
        response: { 200: sendMessageResultSchema, 201: sendMessageResultSchema },
      }),
      async (request, reply) => {
        const result = await messages.send(studentId(request), { kind, id: request.params.id }, request.body);
        return reply.status(result.created ? 201 : 200).send(result);
      },
    );

    // A sender's own message (issue 24): edit the text within the window, or delete it for everyone.
    app.patch(
      `${base}/:id/messages/:messageId`,
      route(
        `Edits the text of one's own message in the ${kind} (within ${CHAT_LIMITS.editWindowMinutes} minutes of sending)`,
        { params: messageParams, body: editMessageSchema, response: { 200: messageResultSchema } },
        perUser(120),
      ),
      async (request) => {
        const { id, messageId } = request.params;
        return { message: await editOwnMessage(ctx, studentId(request), { kind, id }, messageId, request.body) };
      },
    );

    app.delete(
      `${base}/:id/messages/:messageId`,
      route(
        `Deletes one's own message in the ${kind} for everyone (it shows as deleted)`,
        { params: messageParams, response: { 200: messageResultSchema } },
        perUser(120),
      ),
      async (request) => {
        const { id, messageId } = request.params;
        return { message: await deleteOwnMessage(ctx, studentId(request), { kind, id }, messageId) };
      },
    );

    // Reactions (issue 30): one of the allowed emoji, once per student; limited per minute like the other writes.
    app.post(
      `${base}/:id/messages/:messageId/reactions`,
      route(
        `Adds or takes back one's reaction to a message in the ${kind}`,
        { params: messageParams, body: reactSchema, response: { 200: messageResultSchema } },
        perUser(REACTIONS_PER_MINUTE),
      ),
      async (request) => {
        const { id, messageId } = request.params;
        return { message: await react(ctx, studentId(request), { kind, id }, messageId, request.body) };
      },
    );

    app.post(
      `${base}/:id/read`,
      route(`Marks the ${kind}'s messages read (up to a cursor)`, {
        params: idParams,
        body: markReadSchema,
        response: { 200: readResultSchema },
      }),
      async (request) => markRead(ctx, studentId(request), { kind, id: request.params.id }, request.body.cursor),
    );

    // The file itself is the body (its bytes decide what it is); images first, then the message.
    await app.register(async (plugin) => {
      const raw = plugin.withTypeProvider<ZodTypeProvider>();
      raw.removeAllContentTypeParsers();
      raw.addContentTypeParser(
        '*',
        { parseAs: 'buffer', bodyLimit: CHAT_LIMITS.voiceMaxBytes + 2 * 1024 * 1024 },
        (_r, body, done) => done(null, body),
      );
      raw.post(
        `${base}/:id/attachments`,
        route(
          `Stores an image or voice attachment for a ${kind} message`,
          {
            description: 'The body is the file itself (any content type); its bytes decide what it is.',
            params: idParams,
            querystring: attachmentQuery,
            response: { 201: attachmentResultSchema },
          },
          perUser(120),
        ),
        async (request, reply) => {
          const user = requireUser(request);
          const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const ref = { kind, id: request.params.id };
          return reply.status(201).send(await storeAttachment(ctx, user, ref, request.query.kind, body));
        },
      );
    });
  };
}

/** One-to-one chats (requirements §2 Friends), and the messages of chats and groups. */
export function chatRoutes(ctx: AppContext, messages: MessagesService) {
  return async (base: FastifyInstance) => {
    signedInOnly(base);
    const app = base.withTypeProvider<ZodTypeProvider>();
    const route = routeOptions(['chats']);
    app.get('/api/chats', route("The student's chats", { response: { 200: chatListSchema } }), async (request) =>
      listChats(ctx, studentId(request)),
    );
    app.get(
      '/api/chats/unread',
      route('Unread message counts', { response: { 200: unreadCountsSchema } }),
      async (request) => unreadCounts(ctx, studentId(request)),
    );
    app.get(
      '/api/chats/:id',
      route('One chat as its pane needs it', { params: idParams, response: { 200: chatInfoSchema } }),
      async (request) => chatInfo(ctx, studentId(request), request.params.id),
    );
    await app.register(conversationRoutes(ctx, messages, 'chat', '/api/chats'));
    await app.register(conversationRoutes(ctx, messages, 'group', '/api/groups'));
  };
}
