import { z } from 'zod';
import { LIMITS } from './limits.ts';
import { MSG } from './messages.ts';

/**
 * Contracts of the LMS (Canvas) integration: requirements §3 Coursework item, Skipped course entry; §7 calls 1 and 2.
 */

export const COURSEWORK_TYPES = ['assignment', 'quiz', 'discussion', 'module_item'] as const;
export type CourseworkType = (typeof COURSEWORK_TYPES)[number];

/**
 * One coursework item (requirements §3). `id` is unique across types (`quiz_123`); `assignment_group` only on
 * assignments.
 */
export const courseworkItemSchema = z.object({
  id: z.string(),
  type: z.enum(COURSEWORK_TYPES),
  name: z.string(),
  course_id: z.string(),
  assignment_group: z.string().nullable().optional(),
  due_date: z.string().nullable(),
  points_possible: z.number().nullable(),
  is_graded: z.boolean(),
  grade: z.string().nullable(),
  submitted: z.boolean(),
  html_url: z.string(),
});
export type CourseworkItem = z.infer<typeof courseworkItemSchema>;

export const skippedCourseSchema = z.object({
  course_id: z.string(),
  skipped_types: z.array(z.enum(COURSEWORK_TYPES)),
});
export type SkippedCourse = z.infer<typeof skippedCourseSchema>;

export const courseRefSchema = z.object({
  id: z.string().trim().min(1).max(64),
  name: z.string().trim().min(1).max(200),
});

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The user's IANA time zone: forced refreshes are counted per day of the user's own calendar. */
export const timeZoneSchema = z.string().max(64).refine(isTimeZone, MSG.lms.badTimeZone);

export const accessTokenSchema = z
  .string({ error: MSG.lms.tokenRequired })
  .trim()
  .min(1, MSG.lms.tokenRequired)
  .min(LIMITS.lmsTokenMin, MSG.lms.tokenTooShort)
  .max(512, MSG.lms.tokenTooLong);

export const connectInputSchema = z.object({ access_token: accessTokenSchema });
export type ConnectInput = z.infer<typeof connectInputSchema>;

/** §7 call 1. Both fields are optional: the server uses the signed-in user's stored Canvas address and token. */
export const fetchCanvasCoursesInputSchema = z.object({
  canvas_url: z.string().trim().max(300).optional(),
  access_token: accessTokenSchema.optional(),
});
export type FetchCanvasCoursesInput = z.infer<typeof fetchCanvasCoursesInputSchema>;

/**
 * §7 call 2. `courses` defaults to the profile's Canvas courses; `force` is a forced refresh (3 a day);
 * `tz` names the user's time zone for that daily count.
 */
export const fetchCourseworkInputSchema = z.object({
  canvas_url: z.string().trim().max(300).optional(),
  access_token: accessTokenSchema.optional(),
  courses: z.array(courseRefSchema).max(LIMITS.lmsMaxCourses, MSG.lms.tooManyCourses).optional(),
  force: z.boolean().optional(),
  tz: timeZoneSchema.optional(),
});
export type FetchCourseworkInput = z.infer<typeof fetchCourseworkInputSchema>;

export type {
  ConnectResponse,
  CourseRefOut,
  CourseworkResponse,
  FetchCanvasCoursesResponse,
  LmsStatus,
} from './lms-responses.ts';

/** The web app's saved Coursework filters, per user (requirements §3 assignment preferences). */
export interface CourseworkPreferences {
  selectedCourses: string[];
  /** '' is All Groups. */
  selectedGroup: string;
  sortBy: 'dueAsc' | 'dueDesc' | 'course';
  filter: 'all' | 'upcoming' | 'past';
  /** Local calendar days, YYYY-MM-DD. */
  startDate: string | null;
  endDate: string | null;
  dateRangeActive: boolean;
}

export const DEFAULT_COURSEWORK_PREFERENCES: CourseworkPreferences = {
  selectedCourses: [],
  selectedGroup: '',
  sortBy: 'dueAsc',
  filter: 'upcoming',
  startDate: null,
  endDate: null,
  dateRangeActive: false,
};
