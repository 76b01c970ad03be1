import { pgTable, uniqueIndex, text, timestamp } from 'drizzle-orm/pg-core';
import { cascadeRef, createdAt } from './columns.ts';
import { users } from './auth.ts';

/**
 * A user's Google Calendar authorization (requirements §4 Calendar connect), kept on the server: the access token and
 * the refresh token are encrypted with SECRET_KEY (bound to the user id) and never sent to the browser.
 */
export const calendarGoogleTokens = pgTable('calendar_google_tokens', {
  userId: cascadeRef('user_id', () => users.id).primaryKey(),
  accessToken: text('access_token').notNull(),
  refreshToken: text('refresh_token'),
  /** From the provider's expires_in. */
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  scope: text('scope').notNull().default(''),
  /** The calendar chosen last time. */
  calendarId: text('calendar_id'),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * A user's private .ics subscription feed. The secret travels only in the feed address; the server looks it up
 * by its SHA-256 and keeps an encrypted copy so the owner can see the address again. Regenerating replaces it.
 */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    userId: cascadeRef('user_id', () => users.id).primaryKey(),
    tokenHash: text('token_hash').notNull(),
    tokenBox: text('token_box').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('calendar_feeds_token_hash_idx').on(t.tokenHash)],
);
