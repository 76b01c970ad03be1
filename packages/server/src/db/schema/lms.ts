import { integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { cascadeRef } from './columns.ts';
import type { CourseworkItem, SkippedCourse } from '@studybuddy/shared/lms';
import { users } from './auth.ts';

/**
 * A student's link to their Canvas: the address and the access token, encrypted with SECRET_KEY (empty until
 * they connect; both cleared on disconnect). Moved here from the profile by migration 0015.
 */
export const lmsConnections = pgTable('lms_connections', {
  userId: cascadeRef('user_id', () => users.id).primaryKey(),
  canvasUrl: text('canvas_url').notNull().default(''),
  canvasAccessToken: text('canvas_access_token').notNull().default(''),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** The server-side coursework cache (requirements §3 userCache): one row per user, trusted for 24 hours. */
export const courseworkCache = pgTable('coursework_cache', {
  userId: cascadeRef('user_id', () => users.id).primaryKey(),
  /** The credentials the coursework was loaded with (a new token invalidates the cache). */
  connectionId: text('connection_id').notNull(),
  /** Sorted course ids the coursework covers. */
  coursesKey: text('courses_key').notNull(),
  courses: jsonb('courses').$type<{ id: string; name: string }[]>().notNull(),
  coursework: jsonb('coursework').$type<CourseworkItem[]>().notNull(),
  skippedCourses: jsonb('skipped_courses').$type<SkippedCourse[]>().notNull(),
  fetchedAt: timestamp('fetched_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/** Forced coursework refreshes per user and local calendar day (YYYY-MM-DD in the user's time zone). */
export const lmsRefreshCounts = pgTable(
  'lms_refresh_counts',
  {
    userId: cascadeRef('user_id', () => users.id),
    day: text('day').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);
