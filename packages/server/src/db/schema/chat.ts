import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { at, cascadeRef, createdAt, lastMessageColumns } from './columns.ts';
import { users } from './auth.ts';

/** One-to-one chats of requirements §3; id = the two user ids sorted and joined by '_' (user_a < user_b). */
export const chats = pgTable(
  'chats',
  {
    id: text('id').primaryKey(),
    userA: cascadeRef('user_a', () => users.id),
    userB: cascadeRef('user_b', () => users.id),
    ...lastMessageColumns(),
    createdAt: createdAt(),
  },
  (t) => [index('chats_user_a_idx').on(t.userA), index('chats_user_b_idx').on(t.userB)],
);

/**
 * Messages of every conversation. `id` is chosen by the client (the idempotency key); `cursor` is one global
 * increasing sequence clients resync from. A deleted sender leaves sender_id null and the message in place.
 *
 * The hand-written migration `*_search.sql` adds `search_vector` (a generated tsvector of a text message's words)
 * and its GIN index messages_search_idx; left out here so that selects and inserts never carry it.
 *
 * A sender may edit a text message (`edited_at`) or delete any of theirs for everyone (`deleted_at`; the content is
 * emptied and the row stays as the "Message deleted" placeholder). Each change takes the next value of the cursor
 * sequence as `change_cursor` and the time as `changed_at`, so a resync from a cursor also sends the changes made
 * after it; so does a change of its reactions (issue 30).
 */
export const messages = pgTable(
  'messages',
  {
    id: text('id').primaryKey(),
    cursor: bigserial('cursor', { mode: 'number' }).notNull().unique(),
    conversationKind: text('conversation_kind', { enum: ['chat', 'group'] }).notNull(),
    conversationId: text('conversation_id').notNull(),
    senderId: text('sender_id').references(() => users.id, { onDelete: 'set null' }),
    senderName: text('sender_name').notNull(),
    type: text('type', { enum: ['text', 'image', 'voice'] }).notNull(),
    content: text('content').notNull(),
    createdAt: createdAt(),
    editedAt: at('edited_at'),
    deletedAt: at('deleted_at'),
    changeCursor: bigint('change_cursor', { mode: 'number' }),
    /** When the change at `change_cursor` was made: an edit, a deletion or a reaction (a resync's look-back). */
    changedAt: at('changed_at'),
    /** The message this one replies to (issue 30), of the same conversation; it may since be deleted or gone. */
    replyToId: text('reply_to_id'),
  },
  (t) => [
    index('messages_conversation_idx').on(t.conversationKind, t.conversationId, t.cursor),
    index('messages_change_cursor_idx')
      .on(t.changeCursor)
      .where(sql`change_cursor is not null`),
  ],
);

/** Requirements §3 "Read state per user": the last message each user has read in each conversation. */
export const readState = pgTable(
  'read_state',
  {
    userId: cascadeRef('user_id', () => users.id),
    conversationKind: text('conversation_kind', { enum: ['chat', 'group'] }).notNull(),
    conversationId: text('conversation_id').notNull(),
    lastReadCursor: bigint('last_read_cursor', { mode: 'number' }).notNull().default(0),
    lastReadAt: timestamp('last_read_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.conversationKind, t.conversationId] })],
);

/**
 * Reactions to messages (issue 30): one row per student, message and emoji (one of `REACTION_EMOJI`). They go with
 * the message (deleted for everyone: the chat feature removes them; a removed conversation: the cascade) and with
 * the student's account.
 */
export const messageReactions = pgTable(
  'message_reactions',
  {
    messageId: cascadeRef('message_id', () => messages.id),
    userId: cascadeRef('user_id', () => users.id),
    emoji: text('emoji').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.userId, t.emoji] }), index('message_reactions_user_idx').on(t.userId)],
);
