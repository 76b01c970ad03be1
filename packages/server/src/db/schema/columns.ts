import { bigint, text, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';

export const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A required reference to another row (its id), deleted with that row. */
export const cascadeRef = <TName extends string>(name: TName, target: () => AnyPgColumn) =>
  text(name).notNull().references(target, { onDelete: 'cascade' });

/** A conversation's last message, kept on its row (chats and groups) for the lists. */
export const lastMessageColumns = () => ({
  lastMessage: text('last_message').notNull().default(''),
  lastMessageTime: at('last_message_time'),
  lastMessageSender: text('last_message_sender'),
  /** Cursor of the message the last* fields describe (keeps the newest when commits land out of order). */
  lastMessageCursor: bigint('last_message_cursor', { mode: 'number' }).notNull().default(0),
  lastUpdated: timestamp('last_updated', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
