import { bigint, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { users } from './auth.ts';

/**
 * Every file a student keeps in storage (documents, chat files, profile images) with its size: the storage
 * quota sums it. One row per stored path per student (content-addressed paths make a re-upload free).
 */
export const storedFiles = pgTable(
  'stored_files',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.path] })],
);
