import type { OwnProfile } from './session-responses.ts';

export type { CourseRef, OwnProfile, SessionInfo } from './session-responses.ts';

/** Requirements §5: name, major, year and a custom picture. */
export function isProfileComplete(
  p: Pick<OwnProfile, 'name' | 'major' | 'year' | 'hasCustomProfilePicture'> | null,
): boolean {
  return !!p && !!p.name.trim() && !!p.major.trim() && !!p.year && p.hasCustomProfilePicture;
}
