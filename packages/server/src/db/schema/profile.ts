import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { cascadeRef, createdAt } from './columns.ts';
import { users } from './auth.ts';

export interface CourseRef {
  id: string;
  name: string;
}

/** The user profile of requirements §3. */
export const profiles = pgTable(
  'profiles',
  {
    userId: cascadeRef('user_id', () => users.id).primaryKey(),
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
    gcalEnabled: boolean('gcal_enabled').notNull().default(false),
    /**
     * The account is disabled (kept in step by the accounts feature's disable and enable): the student is left out
     * of matching, search and groups' member lists.
     */
    accountDisabled: boolean('account_disabled').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('profiles_college_name_idx').on(t.college, t.lowercaseName)],
);

/** Courses of a profile, normalised for matching in SQL (kept in step with profiles.courses on every save). */
export const profileCourses = pgTable(
  'profile_courses',
  {
    userId: cascadeRef('user_id', () => users.id),
    /** Lower-cased, trimmed course name: shared courses are matched on this. */
    courseKey: text('course_key').notNull(),
    name: text('name').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.courseKey] }), index('profile_courses_key_idx').on(t.courseKey)],
);
