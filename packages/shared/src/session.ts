import type { Year } from './limits.ts';

export interface CourseRef {
  id: string;
  name: string;
}

/** The signed-in user's own profile as the web app sees it. */
export interface OwnProfile {
  uid: string;
  email: string;
  college: string;
  name: string;
  major: string;
  year: Year | '';
  bio: string;
  courses: CourseRef[];
  profilePicture: string;
  hasCustomProfilePicture: boolean;
  additionalImages: string[];
  /** E-mail notices (new friend requests); the unsubscribe link in them turns this off. */
  emailNotificationsEnabled: boolean;
}

export interface SessionInfo {
  user: { id: string; email: string; emailVerified: boolean } | null;
  profile: OwnProfile | null;
}

/** Spec §5: name, major, year and a custom picture. */
export function isProfileComplete(
  p: Pick<OwnProfile, 'name' | 'major' | 'year' | 'hasCustomProfilePicture'> | null,
): boolean {
  return !!p && !!p.name.trim() && !!p.major.trim() && !!p.year && p.hasCustomProfilePicture;
}
