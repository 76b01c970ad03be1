import { z } from 'zod';
import { courseworkItemSchema, skippedCourseSchema } from './lms.ts';

/** What the LMS API answers (response schemas; the web's types are inferred from them). */

export const courseRefOutSchema = z.object({ id: z.string(), name: z.string() });
export type CourseRefOut = z.infer<typeof courseRefOutSchema>;

export const fetchCanvasCoursesResponseSchema = z.object({ courses: z.array(courseRefOutSchema) });
export type FetchCanvasCoursesResponse = z.infer<typeof fetchCanvasCoursesResponseSchema>;

export const courseworkResponseSchema = z.object({
  coursework: z.array(courseworkItemSchema),
  skipped_courses: z.array(skippedCourseSchema),
  /** The courses the coursework was loaded for (id and name). */
  courses: z.array(courseRefOutSchema),
  fetched_at: z.string(),
  refreshes_remaining: z.number(),
  source: z.enum(['cache', 'canvas']),
});
export type CourseworkResponse = z.infer<typeof courseworkResponseSchema>;

export const lmsStatusSchema = z.object({
  /** Both the Canvas address and the token are stored (non-blank). */
  connected: z.boolean(),
  /** The user's university has a Canvas address. */
  available: z.boolean(),
  /** Changes whenever the stored credentials change: keys the browser's coursework cache. */
  connection_id: z.string().nullable(),
  /** Canvas's account settings page (where tokens are made), for the token-expired help. */
  settings_url: z.string().nullable(),
  refreshes_remaining: z.number(),
});
export type LmsStatus = z.infer<typeof lmsStatusSchema>;

export const connectResponseSchema = z.object({
  imported: z.array(courseRefOutSchema),
  /** The profile's courses after the merge (at most 10). */
  courses: z.array(courseRefOutSchema),
  status: lmsStatusSchema,
});
export type ConnectResponse = z.infer<typeof connectResponseSchema>;
