import { MSG } from '@studybuddy/shared/messages';
import type { AppContext } from '../../platform/context.ts';
import { forbidden } from '../../platform/errors.ts';
import type { ConversationKindRule } from '../../platform/registry.ts';
import { groupIdsOfSql, isMember, isMemberSql, memberIdsSql, recordLastMessageSql } from './groups.repository.ts';
import { groupName, leaveHotGroupsWithoutCourse } from './groups.service.ts';
import { isHotGroupId, mayUseHotGroup, usableHotGroups } from './hot-group-access.service.ts';

/**
 * Who may read and write a group's conversation (the chat feature asks this on every path): its members, and
 * in a hot group only while they hold its course. A member who no longer does leaves the group when the course
 * is dropped (the course listener in groups.feature.ts) or, for a member from before, at the first refusal here.
 */
export function groupConversationRule(ctx: AppContext): ConversationKindRule {
  const assertHotGroupAccess = async (userId: string, groupId: string) => {
    if (await mayUseHotGroup(ctx.db, userId, groupId)) return;
    await leaveHotGroupsWithoutCourse(ctx, userId, [groupId]);
    throw forbidden(MSG.groups.notMember);
  };
  return {
    async authorize(userId, id) {
      if (!(await isMember(ctx.db, id, userId))) throw forbidden(MSG.groups.notMember);
      if (isHotGroupId(id)) await assertHotGroupAccess(userId, id);
    },
    async beforeWrite(userId, id) {
      if (isHotGroupId(id)) await assertHotGroupAccess(userId, id);
    },
    async readable(userId, ids) {
      const usable = await usableHotGroups(ctx.db, userId, ids);
      return new Set(ids.filter((id) => !isHotGroupId(id) || usable.has(id)));
    },
    title: (id) => groupName(ctx, id),
    sql: { isMember: isMemberSql, memberIds: memberIdsSql, idsOf: groupIdsOfSql, recordLast: recordLastMessageSql },
  };
}
