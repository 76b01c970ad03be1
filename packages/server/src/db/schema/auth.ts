import { boolean, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { cascadeRef, createdAt } from './columns.ts';

/** Accounts: one row per person who can sign in. */
export const users = pgTable('users', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash'),
  emailVerified: boolean('email_verified').notNull().default(false),
  disabled: boolean('disabled').notNull().default(false),
  createdAt: createdAt(),
});

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the cookie token; the token itself is never stored. */
    id: text('id').primaryKey(),
    userId: cascadeRef('user_id', () => users.id),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** When the browser last used the session (moved forward at most once every few minutes). */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** The browser's User-Agent header when it signed in ('' when it sent none), cut to 512 characters. */
    userAgent: text('user_agent').notNull().default(''),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** One-time codes mailed for e-mail verification and password reset (stored hashed). */
export const authCodes = pgTable(
  'auth_codes',
  {
    id: text('id').primaryKey(),
    userId: cascadeRef('user_id', () => users.id),
    purpose: text('purpose', { enum: ['verifyEmail', 'resetPassword'] }).notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('auth_codes_user_idx').on(t.userId)],
);

export const oauthIdentities = pgTable(
  'oauth_identities',
  {
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    userId: cascadeRef('user_id', () => users.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('oauth_identities_provider_subject').on(t.provider, t.subject)],
);
