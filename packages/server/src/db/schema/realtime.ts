import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { cascadeRef, createdAt } from './columns.ts';
import { users } from './auth.ts';

/** App instances serving WebSockets, each with its last sign of life (one that stops beating is dropped). */
export const realtimeInstances = pgTable('realtime_instances', {
  id: text('id').primaryKey(),
  seenAt: timestamp('seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Open WebSockets per student on every instance: the socket quota (QUOTA_SOCKETS) counts them all. */
export const openSockets = pgTable(
  'open_sockets',
  {
    id: text('id').primaryKey(),
    userId: cascadeRef('user_id', () => users.id),
    instanceId: cascadeRef('instance_id', () => realtimeInstances.id),
    createdAt: createdAt(),
  },
  (t) => [index('open_sockets_user_idx').on(t.userId), index('open_sockets_instance_idx').on(t.instanceId)],
);
