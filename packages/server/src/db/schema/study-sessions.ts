import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { at, cascadeRef, createdAt } from './columns.ts';
import { users } from './auth.ts';

/**
 * Study sessions (issue 27 point 3), planned in a group's or two friends' conversation. `starts_at` is the UTC
 * instant, `time_zone` the planner's zone (the calendar keeps the wall-clock time there). `sequence` goes up with
 * every change, as iCalendar's SEQUENCE. The focus timer (point 4) is `timer_running_since` (null while paused)
 * plus `timer_elapsed_ms` banked by the pauses.
 */
export const studySessions = pgTable(
  'study_sessions',
  {
    id: text('id').primaryKey(),
    conversationKind: text('conversation_kind', { enum: ['chat', 'group'] }).notNull(),
    conversationId: text('conversation_id').notNull(),
    title: text('title').notNull(),
    course: text('course'),
    startsAt: at('starts_at').notNull(),
    minutes: integer('minutes').notNull(),
    timeZone: text('time_zone').notNull(),
    online: boolean('online').notNull(),
    place: text('place').notNull(),
    reminderMinutes: integer('reminder_minutes').notNull(),
    focusMinutes: integer('focus_minutes').notNull(),
    breakMinutes: integer('break_minutes').notNull(),
    status: text('status', { enum: ['scheduled', 'cancelled', 'ended'] })
      .notNull()
      .default('scheduled'),
    sequence: integer('sequence').notNull().default(0),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    timerRunningSince: at('timer_running_since'),
    timerElapsedMs: bigint('timer_elapsed_ms', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('study_sessions_conversation_idx').on(t.conversationKind, t.conversationId, t.startsAt),
    index('study_sessions_starts_idx')
      .on(t.startsAt)
      .where(sql`status = 'scheduled'`),
  ],
);

/** Going / Maybe / Can't, one answer per member and session. */
export const studySessionRsvps = pgTable(
  'study_session_rsvps',
  {
    sessionId: cascadeRef('session_id', () => studySessions.id),
    userId: cascadeRef('user_id', () => users.id),
    answer: text('answer', { enum: ['going', 'maybe', 'cant'] }).notNull(),
    answeredAt: at('answered_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.userId] }), index('study_session_rsvps_user_idx').on(t.userId)],
);

/** Who is in a session's room (seen within the last 45 s), with their goal for it. */
export const studySessionPresence = pgTable(
  'study_session_presence',
  {
    sessionId: cascadeRef('session_id', () => studySessions.id),
    userId: cascadeRef('user_id', () => users.id),
    goal: text('goal').notNull().default(''),
    done: boolean('done').notNull().default(false),
    seenAt: at('seen_at').notNull().defaultNow(),
    /** Left the room on purpose (closed it); absent from "here now" until the next report. */
    left: boolean('left').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.userId] })],
);
