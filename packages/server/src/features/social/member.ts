import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { MSG } from '@studybuddy/shared/messages';
import { isProfileComplete, type OwnProfile } from '@studybuddy/shared/session';
import { SOCIAL_ERRORS } from '@studybuddy/shared/social';
import type { Db } from '../../db/connect.ts';
import { profiles } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { requireUser } from '../auth/session.ts';

/** The signed-in student as the social rules need them. */
export interface Member {
  id: string;
  college: string;
  name: string;
  major: string;
  year: string;
}

/** Spec §6: the one role is a verified student with a complete profile; everyone else is refused. */
export async function requireMember(db: Db, request: FastifyRequest): Promise<Member> {
  const user = requireUser(request);
  const [p] = await db
    .select({
      college: profiles.college,
      name: profiles.name,
      major: profiles.major,
      year: profiles.year,
      hasCustomProfilePicture: profiles.hasCustomProfilePicture,
    })
    .from(profiles)
    .where(eq(profiles.userId, user.id))
    .limit(1);
  if (!p || !isProfileComplete({ ...p, year: p.year as OwnProfile['year'] })) {
    throw new AppError(403, SOCIAL_ERRORS.profileIncomplete, MSG.profile.completeFirst);
  }
  return { id: user.id, college: p.college, name: p.name, major: p.major, year: p.year };
}
