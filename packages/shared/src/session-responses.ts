import { z } from 'zod';
import { YEARS } from './limits.ts';

/** What the session and profile API answer (response schemas; the web's types are inferred from them). */

export const courseRefSchema = z.object({ id: z.string(), name: z.string() });
export type CourseRef = z.infer<typeof courseRefSchema>;

/** The signed-in user's own profile as the web app sees it. */
export const ownProfileSchema = z.object({
  uid: z.string(),
  email: z.string(),
  college: z.string(),
  name: z.string(),
  major: z.string(),
  year: z.union([z.enum(YEARS), z.literal('')]),
  bio: z.string(),
  courses: z.array(courseRefSchema),
  profilePicture: z.string(),
  hasCustomProfilePicture: z.boolean(),
  additionalImages: z.array(z.string()),
  /** E-mail notices (new friend requests); the unsubscribe link in them turns this off. */
  emailNotificationsEnabled: z.boolean(),
});
export type OwnProfile = z.infer<typeof ownProfileSchema>;

export const sessionInfoSchema = z.object({
  user: z.object({ id: z.string(), email: z.string(), emailVerified: z.boolean() }).nullable(),
  profile: ownProfileSchema.nullable(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;
