import { boolean, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { cascadeRef, createdAt } from './columns.ts';
import { sessions, users } from './auth.ts';
import { groups } from './groups.ts';

/**
 * One Web Push subscription per browser. It belongs to the session that made it, so logging out (or any end of
 * that session) removes it with the session; deleting the account removes it with the user.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    /** SHA-256 of the endpoint: one row per browser subscription, whoever registers it last. */
    id: text('id').primaryKey(),
    userId: cascadeRef('user_id', () => users.id),
    sessionId: cascadeRef('session_id', () => sessions.id),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('push_subscriptions_user_idx').on(t.userId), index('push_subscriptions_session_idx').on(t.sessionId)],
);

/** Which notices a student wants; no row means all of them. */
export const pushSettings = pgTable('push_settings', {
  userId: cascadeRef('user_id', () => users.id).primaryKey(),
  messages: boolean('messages').notNull().default(true),
  friendRequests: boolean('friend_requests').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Groups whose messages a student does not want notices of. */
export const pushMutedGroups = pgTable(
  'push_muted_groups',
  {
    userId: cascadeRef('user_id', () => users.id),
    groupId: cascadeRef('group_id', () => groups.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.groupId] })],
);

/**
 * Tabs that say they are visible, on every instance (each instance refreshes its own; a row whose instance died
 * expires by itself). A student with one of them gets no message notices.
 */
export const pushVisibleTabs = pgTable(
  'push_visible_tabs',
  {
    /** The socket's id. */
    id: text('id').primaryKey(),
    userId: cascadeRef('user_id', () => users.id),
    visibleUntil: timestamp('visible_until', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('push_visible_tabs_user_idx').on(t.userId, t.visibleUntil)],
);
