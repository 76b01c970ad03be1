import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

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
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** One-time codes mailed for e-mail verification and password reset (stored hashed). */
export const authCodes = pgTable(
  'auth_codes',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('oauth_identities_provider_subject').on(t.provider, t.subject)],
);

export interface CourseRef {
  id: string;
  name: string;
}

/** The user profile of spec §3. */
export const profiles = pgTable(
  'profiles',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    emailNotificationsEnabled: boolean('email_notifications_enabled').notNull().default(true),
    college: text('college').notNull(),
    name: text('name').notNull().default(''),
    lowercaseName: text('lowercase_name').notNull().default(''),
    major: text('major').notNull().default(''),
    year: text('year').notNull().default(''),
    bio: text('bio').notNull().default(''),
    courses: jsonb('courses')
      .$type<CourseRef[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    profilePicture: text('profile_picture').notNull().default(''),
    hasCustomProfilePicture: boolean('has_custom_profile_picture').notNull().default(false),
    additionalImages: jsonb('additional_images')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    canvasAccessToken: text('canvas_access_token').notNull().default(''),
    canvasUrl: text('canvas_url').notNull().default(''),
    gcalEnabled: boolean('gcal_enabled').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('profiles_college_name_idx').on(t.college, t.lowercaseName)],
);

export const feedback = pgTable('feedback', {
  id: text('id').primaryKey(),
  userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
  feedback: text('feedback').notNull(),
  rating: integer('rating').notNull(),
  createdAt: createdAt(),
});
