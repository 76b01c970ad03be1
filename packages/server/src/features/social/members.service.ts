import { MSG } from '@studybuddy/shared/messages';
import { SOCIAL_ERRORS } from '@studybuddy/shared/social';
import type { Db } from '../../db/connect.ts';
import { AppError } from '../../platform/errors.ts';
import { profiles } from '../profile/profiles.service.ts';

/** The signed-in student as the social rules need them. */
export interface Member {
  id: string;
  college: string;
  name: string;
  major: string;
  year: string;
}

export type MembersService = ReturnType<typeof createMembersService>;

/** Requirements §6: the one role is a verified student with a complete profile; everyone else is refused. */
export function createMembersService(deps: { db: Db }) {
  return {
    /** The student, or 403 until their profile is complete. */
    async require(userId: string): Promise<Member> {
      const p = await profiles.member(deps.db, userId);
      if (!p?.complete) throw new AppError(403, SOCIAL_ERRORS.profileIncomplete, MSG.profile.completeFirst);
      return { id: userId, college: p.college, name: p.name, major: p.major, year: p.year };
    },
  };
}
