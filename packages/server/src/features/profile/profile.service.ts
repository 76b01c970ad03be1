import { randomUUID } from 'node:crypto';
import { filePathOfUrl, UPLOAD_TARGETS } from '@studybuddy/shared/files';
import type { Year } from '@studybuddy/shared/limits';
import { MSG } from '@studybuddy/shared/messages';
import {
  PROFILE_LIMITS,
  profileSaveProblem,
  type CourseInput,
  type NotificationSettings,
  type ProfileUpdate,
} from '@studybuddy/shared/profile';
import type { CourseRef, OwnProfile } from '@studybuddy/shared/session';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { registerUploadTarget, userFolder } from '../../platform/storage/upload-targets.ts';
import { courseKey, replaceProfileCourses } from './profile-courses.repository.ts';
import { findProfile, updateNotificationSettings, updateProfile, type ProfileRow } from './profile.repository.ts';
import { withTransaction } from '../../db/transaction.ts';

/** The signed-in user's own profile as the web app sees it (also used by GET /api/auth/session). */
export function toOwnProfile(row: ProfileRow): OwnProfile {
  return {
    uid: row.userId,
    email: row.email,
    college: row.college,
    name: row.name,
    major: row.major,
    year: row.year as Year | '',
    bio: row.bio,
    courses: row.courses,
    profilePicture: row.profilePicture,
    hasCustomProfilePicture: row.hasCustomProfilePicture,
    additionalImages: row.additionalImages,
    emailNotificationsEnabled: row.emailNotificationsEnabled,
  };
}

/** Profile pictures and additional images live in `users/<id>/profile/`, readable by every signed-in user. */
export const profileImageFolder = (userId: string) => `${userFolder(userId)}/profile`;

export function registerProfileUploads(ctx: AppContext): void {
  registerUploadTarget(ctx, UPLOAD_TARGETS.profileImage, {
    kind: 'image',
    maxBytes: PROFILE_LIMITS.imageUploadBytes,
    maxImagePx: PROFILE_LIMITS.imageMaxPx,
    folder: (user) => profileImageFolder(user.id),
  });
}

/** True when `url` addresses a file the user uploaded as a profile image. */
function isOwnProfileImageUrl(userId: string, url: string): boolean {
  const p = filePathOfUrl(url);
  return (
    !!p &&
    p.startsWith(`${profileImageFolder(userId)}/`) &&
    !p.slice(profileImageFolder(userId).length + 1).includes('/')
  );
}

/** An image address is acceptable when it is already on the profile, or is the user's own stored upload. */
async function checkImage(ctx: AppContext, userId: string, url: string, known: string[], field: string) {
  if (known.includes(url)) return;
  const p = filePathOfUrl(url);
  if (!isOwnProfileImageUrl(userId, url) || !p || !(await ctx.storage.head(p))) {
    throw badRequest(MSG.profile.imageUnavailable, field);
  }
}

/** The id of a course typed by hand: the server's own, never a Canvas course id (those are numbers). */
export const newHandTypedCourseId = () => `manual-${randomUUID()}`;

/**
 * The saved course list (issue 23): a course whose id the profile already holds (Canvas's, from an import, or one
 * the server made) stays as stored; any other is a course typed by hand and gets a new id of the server's, never
 * the client's, so a hot group's course cannot be borrowed by naming its id.
 */
function withServerIds(given: CourseInput[], stored: CourseRef[]): CourseRef[] {
  const known = new Map(stored.map((c) => [c.id, c]));
  return given.map((c) => {
    const same = c.id === undefined ? undefined : known.get(c.id);
    return same ? { id: same.id, name: same.name } : { id: newHandTypedCourseId(), name: c.name };
  });
}

function uniqueCourses(courses: CourseRef[]): CourseRef[] {
  const seen = new Set<string>();
  return courses.filter((c) => {
    const key = courseKey(c.name);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export async function getOwnProfile(ctx: AppContext, userId: string): Promise<OwnProfile> {
  const row = await findProfile(ctx.db, userId);
  if (!row) throw notFound();
  return toOwnProfile(row);
}

export async function saveNotificationSettings(
  ctx: AppContext,
  userId: string,
  settings: NotificationSettings,
): Promise<OwnProfile> {
  const row = await updateNotificationSettings(ctx.db, userId, settings.emailNotificationsEnabled);
  if (!row) throw notFound();
  return toOwnProfile(row);
}

/**
 * Requirements §5 Save: name, major and year required, a custom picture required (the generated avatar is not),
 * at most 4 additional images and 10 courses (course ids: see withServerIds). The profile row and its normalised
 * course rows are written in one transaction; a student who dropped a course leaves its hot groups once it is
 * committed.
 */
export async function saveOwnProfile(ctx: AppContext, userId: string, input: ProfileUpdate): Promise<OwnProfile> {
  const current = await findProfile(ctx.db, userId);
  if (!current) throw notFound();

  await checkImage(ctx, userId, input.profilePicture, [current.profilePicture], 'profilePicture');
  // An unchanged picture keeps its flag (seeded or imported profiles); a new one counts only as an own upload.
  const hasCustomProfilePicture =
    isOwnProfileImageUrl(userId, input.profilePicture) ||
    (input.profilePicture === current.profilePicture && current.hasCustomProfilePicture);
  const additionalImages = [...new Set(input.additionalImages)];
  for (const url of additionalImages) {
    await checkImage(ctx, userId, url, current.additionalImages, 'additionalImages');
  }
  const problem = profileSaveProblem({ ...input, hasCustomProfilePicture });
  if (problem) throw badRequest(problem.message, problem.field);

  const courses = uniqueCourses(withServerIds(input.courses, current.courses));
  const saved = await withTransaction(ctx.db, async (db) => {
    const row = await updateProfile(db, userId, {
      name: input.name,
      major: input.major,
      year: input.year,
      bio: input.bio,
      courses,
      profilePicture: input.profilePicture,
      hasCustomProfilePicture,
      additionalImages,
    });
    await replaceProfileCourses(db, userId, courses);
    return row;
  });
  if (!saved) throw notFound();
  // A course that left the profile may take the student out of its hot groups (the groups feature decides).
  if (current.courses.some((c) => !courses.some((kept) => kept.id === c.id))) {
    await Promise.all(ctx.registry.courseListeners.map((listen) => listen(userId)));
  }
  // The user's other tabs (guard, shell) and their friends' screens refresh.
  const audience = await Promise.all(ctx.registry.profileAudiences.map((whoSees) => whoSees(userId)));
  ctx.realtime.toUsers([userId, ...audience.flat()], { type: 'profile.changed', userId });
  return toOwnProfile(saved);
}

/** The profile feature's own service (built in profile.feature.ts): the signed-in student's profile and settings. */
export function createProfileService(ctx: AppContext) {
  return {
    own: (userId: string) => getOwnProfile(ctx, userId),
    save: (userId: string, input: ProfileUpdate) => saveOwnProfile(ctx, userId, input),
    saveNotificationSettings: (userId: string, settings: NotificationSettings) =>
      saveNotificationSettings(ctx, userId, settings),
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
