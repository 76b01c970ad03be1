import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Fixed-window counters for the abuse limits on sign-up, log-in, resend and reset (per IP and per e-mail).
 * Kept in the database so every app instance shares them; the key is a SHA-256, never the raw e-mail or IP.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    windowEndsAt: timestamp('window_ends_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('rate_limits_window_idx').on(t.windowEndsAt)],
);
