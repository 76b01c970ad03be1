import { z } from 'zod';
import { LIMITS, YEARS } from './limits.ts';
import { MSG } from './messages.ts';

export const PROFILE_API = {
  own: '/api/profile',
  account: '/api/account',
  notifications: '/api/profile/notifications',
} as const;

export const PROFILE_LIMITS = {
  nameMax: 100,
  majorMax: 100,
  bioMax: 2000,
  courseNameMax: 200,
  courseIdMax: 200,
  imageUrlMax: 500,
  /** Largest image a profile upload may send (before the server re-encodes it). */
  imageUploadBytes: 15 * 1024 * 1024,
  /** Longest side of a stored profile image after re-encoding. */
  imageMaxPx: 2048,
  /** Side of the square the crop tool exports. */
  pictureExportPx: 1024,
} as const;

/**
 * A course of a profile save. `id` names a course the profile already holds (from a Canvas import, or saved
 * before); a course typed by hand has none, and the server gives it one of its own (any id the profile does not
 * hold is treated the same: the server never takes a course id from the client).
 */
export const courseSchema = z.object({
  id: z.string().trim().min(1).max(PROFILE_LIMITS.courseIdMax).optional(),
  name: z.string().trim().min(1).max(PROFILE_LIMITS.courseNameMax),
});
export type CourseInput = z.infer<typeof courseSchema>;

/** The body of PUT /api/profile (the server derives college, lowercaseName and hasCustomProfilePicture). */
export const profileUpdateSchema = z.object({
  name: z.string().trim().max(PROFILE_LIMITS.nameMax).default(''),
  major: z.string().trim().max(PROFILE_LIMITS.majorMax).default(''),
  year: z.union([z.enum(YEARS), z.literal('')], { error: MSG.profile.requiredFields }).default(''),
  bio: z.string().trim().max(PROFILE_LIMITS.bioMax).default(''),
  courses: z.array(courseSchema).max(LIMITS.coursesPerProfile, MSG.profile.maxCourses).default([]),
  profilePicture: z.string().max(PROFILE_LIMITS.imageUrlMax),
  additionalImages: z
    .array(z.string().min(1).max(PROFILE_LIMITS.imageUrlMax))
    .max(LIMITS.additionalImages, MSG.profile.maxImages)
    .default([]),
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/** Requirements §5 Save rules, in the order the user sees them; null when the profile may be saved. */
export function profileSaveProblem(p: {
  name: string;
  major: string;
  year: string;
  hasCustomProfilePicture: boolean;
}): { message: string; field: string } | null {
  const missing = (['name', 'major', 'year'] as const).find((k) => !p[k].trim());
  if (missing) return { message: MSG.profile.requiredFields, field: missing };
  if (!p.hasCustomProfilePicture) return { message: MSG.profile.customPicture, field: 'profilePicture' };
  return null;
}

export const notificationSettingsSchema = z.object({ emailNotificationsEnabled: z.boolean() });
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const deleteAccountSchema = z.object({
  password: z.string().max(1000).optional(),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;
