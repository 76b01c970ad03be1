import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ATTACHMENT_KINDS,
  CHAT_LIMITS,
  historyQuerySchema,
  markReadSchema,
  sendMessageSchema,
  type ConversationKind,
  type ConversationRef,
} from '@studybuddy/shared/chat';
import type { AppContext } from '../../platform/context.ts';
import { parse } from '../../platform/errors.ts';
import { requireUser } from '../auth/session.ts';
import { registerChatFiles, storeAttachment } from './attachments.service.ts';
import { chatInfo, listChats, unreadCounts } from './chat.service.ts';
import { registerChatSocket } from './chat.socket.ts';
import { history, markRead, sendMessage } from './messages.service.ts';

const idParams = z.object({ id: z.string().min(1).max(300) });
const attachmentQuery = z.object({ kind: z.enum(ATTACHMENT_KINDS) });

/** The messages routes of one conversation kind: /api/chats/:id/… and /api/groups/:id/…. */
function conversationRoutes(ctx: AppContext, kind: ConversationKind, base: string) {
  const refOf = (request: FastifyRequest): ConversationRef => ({ kind, id: parse(idParams, request.params).id });
  const perUser = (max: number): FastifyContextConfig =>
    ctx.config.rateLimits
      ? { rateLimit: { max, timeWindow: '1 minute', keyGenerator: (r: FastifyRequest) => r.user?.id ?? r.ip } }
      : {};

  return async (app: FastifyInstance) => {
    app.get(`${base}/:id/messages`, async (request) => {
      const user = requireUser(request);
      return history(ctx, user.id, refOf(request), parse(historyQuerySchema, request.query));
    });

    // Acknowledged after the commit: 201 when stored now, 200 when this id was already stored (a retry).
    app.post(`${base}/:id/messages`, { config: perUser(600) }, async (request, reply) => {
      const user = requireUser(request);
      const result = await sendMessage(ctx, user.id, refOf(request), parse(sendMessageSchema, request.body));
      return reply.status(result.created ? 201 : 200).send(result);
    });

    app.post(`${base}/:id/read`, async (request) => {
      const user = requireUser(request);
      const { cursor } = parse(markReadSchema, request.body ?? {});
      return markRead(ctx, user.id, refOf(request), cursor);
    });

    // The file itself is the body (its bytes decide what it is); images first, then the message.
    await app.register(async (raw) => {
      raw.removeAllContentTypeParsers();
      raw.addContentTypeParser(
        '*',
        { parseAs: 'buffer', bodyLimit: CHAT_LIMITS.voiceMaxBytes + 2 * 1024 * 1024 },
        (_r, body, done) => done(null, body),
      );
      raw.post(`${base}/:id/attachments`, { config: perUser(120) }, async (request, reply) => {
        const user = requireUser(request);
        const ref = refOf(request);
        const { kind } = parse(attachmentQuery, request.query);
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        return reply.status(201).send(await storeAttachment(ctx, user, ref, kind, body));
      });
    });
  };
}

/** One-to-one chats (spec §2 Friends), and the messages of chats and groups. */
export function chatRoutes(ctx: AppContext) {
  registerChatFiles(ctx);
  registerChatSocket(ctx);
  return async (app: FastifyInstance) => {
    app.get('/api/chats', async (request) => listChats(ctx, requireUser(request).id));
    app.get('/api/chats/unread', async (request) => unreadCounts(ctx, requireUser(request).id));
    app.get('/api/chats/:id', async (request) => {
      const user = requireUser(request);
      return chatInfo(ctx, user.id, parse(idParams, request.params).id);
    });
    await app.register(conversationRoutes(ctx, 'chat', '/api/chats'));
    await app.register(conversationRoutes(ctx, 'group', '/api/groups'));
  };
}
