import { randomUUID } from 'node:crypto';
import { MSG } from '@studybuddy/shared/messages';
import { STUDY_GROUPS_MSG } from '@studybuddy/shared/messages/study-groups';
import {
  STUDY_GROUP_LIMITS,
  type CreateStudyGroupInput,
  type CreateStudyGroupResult,
  type GroupInvitationList,
  type StudyGroupSuggestions,
} from '@studybuddy/shared/study-groups';
import type { Db } from '../../db/connect.ts';
import { withTransaction } from '../../db/transaction.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { createQuota, DAY_MS, type QuotaRule } from '../../platform/quota.ts';
import { profiles, type ClassmatesQuery } from '../profile/profiles.service.ts';
import { blocking } from '../social/blocks.service.ts';
import * as groupsRepo from './groups.repository.ts';
import * as repo from './study-groups.repository.ts';

const M = STUDY_GROUPS_MSG.studyGroups;

/**
 * "Find a study group" (issue 27 part 5). For one of the student's own courses, the classmates at their college
 * with the most free time in common (the schedule's signal on `ctx.registry.matchTiebreaks`: counts and the
 * "free together" block, never anyone's cells), and a new group with invitations in one step. Classmates are not
 * friends, so nobody is added: each invitee accepts or declines. A blocked pair (either way) is never proposed nor
 * invitable, and an invitation between them cannot be accepted. Invitations count against a daily quota.
 */
export function createStudyGroupsService(ctx: AppContext) {
  const quota = createQuota(ctx.db);
  const perDay: QuotaRule = {
    what: M.invitesPerDay,
    limit: STUDY_GROUP_LIMITS.invitesPerDay,
    windowMs: DAY_MS,
    when: MSG.quota.tryTomorrow,
  };
  const freeTime = () => ctx.registry.matchTiebreaks[0];

  /** The viewer, the course as their profile names it and who they may not meet; 403 for a course not theirs. */
  async function classmatesQuery(db: Db, viewerId: string, course: string) {
    const member = await profiles.member(db, viewerId);
    if (!member?.complete) throw forbidden(MSG.profile.completeFirst);
    const courseKey = profiles.discovery.courseKey(course);
    const name = courseKey ? await profiles.discovery.ownCourseName(db, viewerId, courseKey) : null;
    if (!name) throw forbidden(M.notYourCourse);
    const query: ClassmatesQuery = {
      viewer: { id: viewerId, college: member.college, major: member.major, year: member.year },
      courseKey,
      excludeIds: await blocking.hiddenFrom(db, viewerId),
    };
    return { query, name };
  }

  async function people(ids: string[]) {
    const cards = await profiles.cards(ctx.db, ids);
    return new Map(
      ids.map((id) => {
        const c = cards.get(id);
        return [id, { id, name: c?.name?.trim() || MSG.chat.anonymous, profilePicture: c?.profilePicture ?? '' }];
      }),
    );
  }

  return {
    async suggestions(viewerId: string, course: string): Promise<StudyGroupSuggestions> {
      const { query, name } = await classmatesQuery(ctx.db, viewerId, course);
      const signal = freeTime();
      const sqlFree = (await signal?.sqlFor(viewerId)) ?? undefined;
      const ids = await profiles.discovery.classmates(
        ctx.db,
        { ...query, ...(sqlFree ? { freeTime: sqlFree } : {}) },
        STUDY_GROUP_LIMITS.proposed,
      );
      const [cards, together] = await Promise.all([
        people(ids),
        signal?.details(viewerId, ids) ?? Promise.resolve(new Map()),
      ]);
      return {
        course: name,
        classmates: ids.map((id) => ({ ...cards.get(id)!, freeTogether: together.get(id) ?? null })),
      };
    },

    /** A new group with the viewer as its only member and admin, and an invitation for each classmate. */
    async create(viewerId: string, input: CreateStudyGroupInput): Promise<CreateStudyGroupResult> {
      const wanted = [...new Set(input.inviteeIds)].filter((id) => id !== viewerId);
      if (!wanted.length) throw badRequest(M.selectClassmate, 'inviteeIds');
      const quotaKey = `study-group-invites:${viewerId}`;
      await quota.consume(quotaKey, perDay, wanted.length);
      const groupId = randomUUID();
      try {
        await withTransaction(ctx.db, async (db) => {
          const { query, name } = await classmatesQuery(db, viewerId, input.course);
          const allowed = await profiles.discovery.classmatesAmong(db, query, wanted);
          if (wanted.some((id) => !allowed.has(id))) throw forbidden(M.notClassmate);
          await groupsRepo.insertGroup(db, {
            id: groupId,
            kind: 'group',
            name: input.name.trim(),
            description: '',
            createdBy: viewerId,
          });
          await groupsRepo.addMembers(db, groupId, [viewerId]);
          await repo.insertInvitations(db, groupId, viewerId, name, wanted);
        });
      } catch (err) {
        await quota.refund(quotaKey, wanted.length);
        throw err;
      }
      ctx.realtime.toUsers([viewerId], { type: 'group.changed', groupId, change: 'created' });
      ctx.realtime.toUsers(wanted, { type: 'group.changed', groupId, change: 'invited' });
      return { groupId, invited: wanted.length };
    },

    /**
     * The student's open invitations; those from a student either of them blocked, or whose account was disabled
     * since (moderation), are not shown.
     */
    async invitations(userId: string): Promise<GroupInvitationList> {
      const [found, hidden] = await Promise.all([
        repo.invitationsOf(ctx.db, userId),
        blocking.hiddenFrom(ctx.db, userId),
      ]);
      const disabled = await profiles.moderation.disabledAmong(
        ctx.db,
        found.map((i) => i.invitedBy),
      );
      const shown = found.filter((i) => !hidden.includes(i.invitedBy) && !disabled.has(i.invitedBy));
      const cards = await people([...new Set(shown.map((i) => i.invitedBy))]);
      return {
        invitations: shown.map((i) => ({
          groupId: i.groupId,
          groupName: i.groupName,
          course: i.course,
          invitedBy: cards.get(i.invitedBy)!,
          createdAt: i.createdAt.toISOString(),
        })),
      };
    },

    /**
     * Joins the group (the invitation goes); 404 when there is none, the inviter and invitee are blocked, or the
     * inviter's account was disabled since.
     */
    async accept(userId: string, groupId: string): Promise<void> {
      const members = await withTransaction(ctx.db, async (db) => {
        const group = await groupsRepo.lockGroup(db, groupId);
        const invitation = group ? await repo.takeInvitation(db, groupId, userId) : null;
        if (!invitation) return null;
        // A blocked pair (either way) never meet: their invitation goes, and nobody is added.
        if ((await blocking.hiddenFrom(db, userId)).includes(invitation.invitedBy)) return null;
        if ((await profiles.moderation.disabledAmong(db, [invitation.invitedBy])).size) return null;
        await groupsRepo.addMembers(db, groupId, [userId]);
        return groupsRepo.memberIds(db, groupId);
      });
      if (!members) throw notFound(M.noInvitation);
      ctx.realtime.toUsers([userId], { type: 'group.changed', groupId, change: 'joined' });
      ctx.realtime.toUsers(
        members.filter((id) => id !== userId),
        { type: 'group.changed', groupId, change: 'members' },
      );
    },

    async decline(userId: string, groupId: string): Promise<void> {
      if (!(await repo.takeInvitation(ctx.db, groupId, userId))) throw notFound(M.noInvitation);
      ctx.realtime.toUsers([userId], { type: 'group.changed', groupId, change: 'invited' });
    },
  };
}

export type StudyGroupsService = ReturnType<typeof createStudyGroupsService>;
