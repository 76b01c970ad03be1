import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
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
import { errorResponses } from '../../platform/openapi.ts';
import { requireUser, signedIn } from '../../platform/session.ts';
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
  const perUser = (max: number): FastifyContextConfig =>
    ctx.config.rateLimits
      ? { rateLimit: { max, timeWindow: '1 minute', keyGenerator: (r: FastifyRequest) => r.user?.id ?? r.ip } }
      : {};
  const tags = [kind === 'chat' ? 'chats' : 'groups'];
  const preValidation = signedIn;

  return async (plugin: FastifyInstance) => {
    const app = plugin.withTypeProvider<ZodTypeProvider>();
    app.get(
      `${base}/:id/messages`,
      {
        preValidation,
        schema: {
          summary: `A page of the ${kind}'s messages`,
          tags,
          params: idParams,
          querystring: historyQuerySchema,
          response: { 200: messagePageSchema, ...errorResponses },
        },
      },
      async (request) => history(ctx, requireUser(request).id, { kind, id: request.params.id }, request.query),
    );

    // Clients send over the socket (`send` op, chat.socket.ts); the web app uses this route only while the socket
    // cannot open and it polls (a network that blocks WebSockets). A thin call to the same service, whose per-minute
    // limit and idempotent id apply to both; journeys and benches seed with it too.
    app.post(
      `${base}/:id/messages`,
      {
        preValidation,
        schema: {
          summary: `Sends a message to the ${kind} (idempotent by the message id; clients use the socket's send op)`,
          tags,
          params: idParams,
          body: sendMessageSchema,
          response: { 200: sendMessageResultSchema, 201: sendMessageResultSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const result = await messages.send(requireUser(request).id, { kind, id: request.params.id }, request.body);
        return reply.status(result.created ? 201 : 200).send(result);
      },
    );

    // A sender's own message (issue 24): edit the text within the window, or delete it for everyone.
    app.patch(
      `${base}/:id/messages/:messageId`,
      {
        config: perUser(120),
        preValidation,
        schema: {
          summary: `Edits the text of one's own message in the ${kind} (within ${CHAT_LIMITS.editWindowMinutes} minutes of sending)`,
          tags,
          params: messageParams,
          body: editMessageSchema,
          response: { 200: messageResultSchema, ...errorResponses },
        },
      },
      async (request) => {
        const { id, messageId } = request.params;
        const user = requireUser(request);
        return { message: await editOwnMessage(ctx, user.id, { kind, id }, messageId, request.body) };
      },
    );

    app.delete(
      `${base}/:id/messages/:messageId`,
      {
        config: perUser(120),
        preValidation,
        schema: {
          summary: `Deletes one's own message in the ${kind} for everyone (it shows as deleted)`,
          tags,
          params: messageParams,
          response: { 200: messageResultSchema, ...errorResponses },
        },
      },
      async (request) => {
        const { id, messageId } = request.params;
        return { message: await deleteOwnMessage(ctx, requireUser(request).id, { kind, id }, messageId) };
      },
    );

    // Reactions (issue 30): one of the allowed emoji, once per student; limited per minute like the other writes.
    app.post(
      `${base}/:id/messages/:messageId/reactions`,
      {
        config: perUser(REACTIONS_PER_MINUTE),
        preValidation,
        schema: {
          summary: `Adds or takes back one's reaction to a message in the ${kind}`,
          tags,
          params: messageParams,
          body: reactSchema,
          response: { 200: messageResultSchema, ...errorResponses },
        },
      },
      async (request) => {
        const { id, messageId } = request.params;
        return { message: await react(ctx, requireUser(request).id, { kind, id }, messageId, request.body) };
      },
    );

    app.post(
      `${base}/:id/read`,
      {
        preValidation,
        schema: {
          summary: `Marks the ${kind}'s messages read (up to a cursor)`,
          tags,
          params: idParams,
          body: markReadSchema,
          response: { 200: readResultSchema, ...errorResponses },
        },
      },
      async (request) => markRead(ctx, requireUser(request).id, { kind, id: request.params.id }, request.body.cursor),
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
        {
          config: perUser(120),
          preValidation,
          schema: {
            summary: `Stores an image or voice attachment for a ${kind} message`,
            description: 'The body is the file itself (any content type); its bytes decide what it is.',
            tags,
            params: idParams,
            querystring: attachmentQuery,
            response: { 201: attachmentResultSchema, ...errorResponses },
          },
        },
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
    const app = base.withTypeProvider<ZodTypeProvider>();
    const tags = ['chats'];
    const preValidation = signedIn;
    app.get(
      '/api/chats',
      {
        preValidation,
        schema: { summary: "The student's chats", tags, response: { 200: chatListSchema, ...errorResponses } },
      },
      async (request) => listChats(ctx, requireUser(request).id),
    );
    app.get(
      '/api/chats/unread',
      {
        preValidation,
        schema: { summary: 'Unread message counts', tags, response: { 200: unreadCountsSchema, ...errorResponses } },
      },
      async (request) => unreadCounts(ctx, requireUser(request).id),
    );
    app.get(
      '/api/chats/:id',
      {
        preValidation,
        schema: {
          summary: 'One chat as its pane needs it',
          tags,
          params: idParams,
          response: { 200: chatInfoSchema, ...errorResponses },
        },
      },
      async (request) => chatInfo(ctx, requireUser(request).id, request.params.id),
    );
    await app.register(conversationRoutes(ctx, messages, 'chat', '/api/chats'));
    await app.register(conversationRoutes(ctx, messages, 'group', '/api/groups'));
  };
}
