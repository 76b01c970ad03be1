import type { FastifyRequest } from 'fastify';
import { MSG } from '@studybuddy/shared/messages';
import { SOCIAL_ERRORS } from '@studybuddy/shared/social';
import type { Db } from '../../db/connect.ts';
import { AppError } from '../../platform/errors.ts';
import { requireUser } from '../../platform/session.ts';
import { profiles } from '../profile/profiles.service.ts';

/** The signed-in student as the social rules need them. */
export interface Member {
  id: string;
  college: string;
  name: string;
  major: string;
  year: string;
}

/** Requirements §6: the one role is a verified student with a complete profile; everyone else is refused. */
export async function requireMember(db: Db, request: FastifyRequest): Promise<Member> {
  const user = requireUser(request);
  const p = await profiles.member(db, user.id);
  if (!p?.complete) throw new AppError(403, SOCIAL_ERRORS.profileIncomplete, MSG.profile.completeFirst);
  return { id: user.id, college: p.college, name: p.name, major: p.major, year: p.year };
}
