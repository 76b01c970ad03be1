import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { users } from './auth.ts';

export const feedback = pgTable('feedback', {
  id: text('id').primaryKey(),
  userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
  feedback: text('feedback').notNull(),
  rating: integer('rating').notNull(),
  createdAt: createdAt(),
});
