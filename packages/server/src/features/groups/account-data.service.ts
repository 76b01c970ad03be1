import { conversationFolder } from '@studybuddy/shared/chat';
import { conversationTopic } from '@studybuddy/shared/realtime';
import { withTransaction } from '../../db/transaction.ts';
import type { AppContext } from '../../platform/context.ts';
import { deleteConversationMessages } from '../chat/messages.service.ts';
import { forgetStoredFolder } from '../files/storage-quota.service.ts';
import * as data from './account-data.repository.ts';
import * as repo from './groups.repository.ts';

/** A group the student is in, as their data download lists it (no other member is named). */
export interface GroupMembership {
  id: string;
  kind: 'group' | 'hot';
  name: string;
  description: string;
  createdByYou: boolean;
  createdAt: string;
  joinedAt: string;
  memberCount: number;
}

/** The groups and hot groups the student is a member of, in joining order. */
export async function groupsForExport(ctx: AppContext, userId: string): Promise<GroupMembership[]> {
  const rows = await data.membershipsOf(ctx.db, userId);
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    name: r.name,
    description: r.description,
    createdByYou: r.createdByThem,
    createdAt: r.createdAt.toISOString(),
    joinedAt: r.joinedAt.toISOString(),
    memberCount: r.memberCount,
  }));
}

/**
 * Before an account goes: the student leaves every group; a group (of either kind) nobody is left in is deleted
 * with its messages and files, and the others' members hear that the member list changed. No group's last message
 * keeps naming the student.
 */
export async function leaveAllGroups(ctx: AppContext, userId: string): Promise<void> {
  for (const { id: groupId } of await data.membershipsOf(ctx.db, userId)) {
    const outcome = await withTransaction(ctx.db, async (db) => {
      const group = await repo.lockGroup(db, groupId);
      if (!group || !(await repo.removeMember(db, groupId, userId))) return null;
      const remaining = await repo.memberIds(db, groupId);
      if (!remaining.length) {
        await deleteConversationMessages(db, { kind: 'group', id: groupId });
        await repo.deleteGroup(db, groupId);
      }
      return { remaining };
    });
    if (!outcome) continue;
    const ref = { kind: 'group' as const, id: groupId };
    ctx.realtime.revoke([userId], conversationTopic(ref));
    if (outcome.remaining.length) {
      ctx.realtime.toUsers(outcome.remaining, { type: 'group.changed', groupId, change: 'members' });
    } else {
      await ctx.storage.deletePrefix(conversationFolder(ref));
      await forgetStoredFolder(ctx.db, conversationFolder(ref));
    }
  }
  await data.forgetLastSender(ctx.db, userId);
}
