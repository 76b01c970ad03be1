import type { PublicProfile } from '@studybuddy/shared/social';
import type { PublicProfileRow } from '../profile/profiles.service.ts';

/** Profile picture first, then the additional images (requirements §3 Match candidate `images`). */
const imagesOf = (r: Pick<PublicProfileRow, 'profilePicture' | 'additionalImages'>) =>
  [r.profilePicture, ...(r.additionalImages ?? [])].filter((src) => typeof src === 'string' && src !== '');

export function toPublicProfile(r: PublicProfileRow): PublicProfile {
  return {
    uid: r.uid,
    name: r.name,
    college: r.college,
    major: r.major,
    year: r.year,
    bio: r.bio,
    profilePicture: r.profilePicture,
    images: imagesOf(r),
    sharedCourses: r.sharedCourses ?? [],
  };
}
