import { customType, date, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { cascadeRef } from './columns.ts';
import { users } from './auth.ts';

/**
 * 1008 bits, one per half hour of three UTC weeks (PostgreSQL bit(1008)): the matching signal is bit_count(a & b)
 * over Find a time's two-week window.
 */
const rankBits = customType<{ data: string; driverData: string }>({ dataType: () => 'bit(1008)' });

/**
 * A student's painted week (issue 27 part 1): 336 cells ('1' free) in their IANA zone, and its free half hours of
 * three UTC weeks from `utc_from` (painted less imported busy times, recomputed on every change, re-read and daily) for
 * ranking.
 */
export const scheduleWeeks = pgTable(
  'schedule_weeks',
  {
    userId: cascadeRef('user_id', () => users.id).primaryKey(),
    timeZone: text('time_zone').notNull(),
    cells: text('cells').notNull(),
    utcFree: rankBits('utc_free').notNull(),
    /** The UTC Monday `utc_free` starts at (the week it was computed in; the daily refresh moves it on). */
    utcFrom: date('utc_from', { mode: 'string' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('schedule_weeks_updated_idx').on(t.updatedAt)],
);

/** Where a student's busy times come from: an uploaded file or an https address re-read daily. */
export const scheduleImports = pgTable('schedule_imports', {
  userId: cascadeRef('user_id', () => users.id).primaryKey(),
  kind: text('kind', { enum: ['file', 'url'] }).notNull(),
  source: text('source').notNull(),
  lastImportAt: timestamp('last_import_at', { withTimezone: true, mode: 'date' }),
  lastError: text('last_error'),
});

/** Imported busy occurrences (recurring events expanded into the window); private to their student. */
export const scheduleBusy = pgTable(
  'schedule_busy',
  {
    userId: cascadeRef('user_id', () => users.id),
    key: text('key').notNull(),
    seriesKey: text('series_key').notNull(),
    title: text('title').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true, mode: 'date' }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('schedule_busy_user_start_idx').on(t.userId, t.startsAt)],
);

/** The override layer: an occurrence or a whole series the student marked free; kept across re-reads. */
export const scheduleOverrides = pgTable(
  'schedule_overrides',
  {
    userId: cascadeRef('user_id', () => users.id),
    key: text('key').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);
