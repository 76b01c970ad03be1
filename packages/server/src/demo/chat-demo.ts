import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { chatIdFor, previewOf, type ConversationRef } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import { groupMembers, groups, messages, users } from '../db/schema.ts';
import { accessSql } from '../features/chat/conversation-access.ts';
import { insertMessages, writeBatchStatement } from '../features/chat/conversation.repository.ts';
import type { AppContext } from '../platform/context.ts';

/** Conversations of `npm run demo` among demo students who are friends (see social-demo.ts). */
export const DEMO_CHAT = {
  chat: {
    between: ['ada@g.ucla.edu', 'chloe@g.ucla.edu'] as const,
    lines: [
      ['chloe@g.ucla.edu', 'Hi Ada! Are you going to the CS 180 review session?'],
      ['ada@g.ucla.edu', 'Yes! Want to go over the dynamic programming problems first?'],
      ['chloe@g.ucla.edu', 'Perfect. Library at 3?'],
    ] as const,
  },
  group: {
    id: '5a0d4b6e-7c1f-4d2a-9e3b-8f6a2c1d0e90',
    name: 'CS 180 study group',
    creator: 'ada@g.ucla.edu',
    members: ['ada@g.ucla.edu', 'chloe@g.ucla.edu'] as const,
    lines: [['ada@g.ucla.edu', 'Welcome! Problem set 4 is due Friday.']] as const,
  },
};

/** Idempotent: a conversation that already has messages is left as it is; missing students are skipped. */
export async function seedChatDemo(ctx: AppContext, demo = DEMO_CHAT): Promise<void> {
  const { db } = ctx;
  const statement = writeBatchStatement(accessSql(ctx));
  const emails = [...new Set([...demo.chat.between, ...demo.group.members])];
  const found = await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.email, emails));
  const idOf = new Map(found.map((u) => [u.email, u.id]));
  const post = async (ref: ConversationRef, from: string, text: string, peer?: string) => {
    const senderId = idOf.get(from);
    if (!senderId) return;
    await insertMessages(db, statement, [
      {
        id: randomUUID(),
        conversation: ref,
        senderId,
        senderName: MSG.chat.anonymous,
        type: 'text',
        content: text,
        preview: previewOf('text', text),
        peerId: peer,
      },
    ]);
  };
  const hasMessages = async (ref: ConversationRef) =>
    (await db.select({ id: messages.id }).from(messages).where(eq(messages.conversationId, ref.id)).limit(1)).length >
    0;

  const [a, b] = demo.chat.between.map((e) => idOf.get(e));
  if (a && b) {
    const ref: ConversationRef = { kind: 'chat', id: chatIdFor(a, b) };
    if (!(await hasMessages(ref))) {
      for (const [from, text] of demo.chat.lines) await post(ref, from, text, from === demo.chat.between[0] ? b : a);
    }
  }

  const creator = idOf.get(demo.group.creator);
  const members = demo.group.members.map((e) => idOf.get(e)).filter((id): id is string => !!id);
  if (!creator || members.length < 2) return;
  const ref: ConversationRef = { kind: 'group', id: demo.group.id };
  await db
    .insert(groups)
    .values({ id: ref.id, kind: 'group', name: demo.group.name, createdBy: creator })
    .onConflictDoNothing();
  await db
    .insert(groupMembers)
    .values(members.map((userId) => ({ groupId: ref.id, userId })))
    .onConflictDoNothing();
  if (!(await hasMessages(ref))) for (const [from, text] of demo.group.lines) await post(ref, from, text);
}
