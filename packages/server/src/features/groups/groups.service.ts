import { randomUUID } from 'node:crypto';
import { conversationFolder, type PersonSummary } from '@studybuddy/shared/chat';
import {
  GROUP_LIMITS,
  hotGroupIdFor,
  type AddMembersInput,
  type FriendOptions,
  type GroupDetail,
  type GroupKind,
  type GroupList,
  type GroupSummary,
  type HotGroupInput,
  type HotGroupResult,
} from '@studybuddy/shared/groups';
import { MSG } from '@studybuddy/shared/messages';
import { conversationTopic } from '@studybuddy/shared/realtime';
import type { Db } from '../../db/connect.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { deleteConversationMessages, unreadOfGroups } from '../chat/messages.service.ts';
import { profiles } from '../profile/profiles.service.ts';
import { friendships } from '../social/friendships.service.ts';
import * as repo from './groups.repository.ts';
import {
  hotGroupOpener,
  hotGroupParts,
  mayUseHotGroup,
  removeMembersWithoutCourse,
  rightfulOwnerCollege,
  usableHotGroups,
} from './hot-group-access.service.ts';
import { withTransaction } from '../../db/transaction.ts';

/** Requirements §6 Groups: any member adds their own friends, anyone leaves; the creator is the admin. */

const inTx = <T>(ctx: AppContext, fn: (db: Db) => Promise<T>) => withTransaction(ctx.db, fn);

const person = (p: { id: string; name?: string | null; profilePicture?: string | null }): PersonSummary => ({
  id: p.id,
  name: p.name?.trim() || MSG.chat.anonymous,
  profilePicture: p.profilePicture ?? '',
});

function summary(group: repo.GroupRow, memberCount: number, unread: number): GroupSummary {
  return {
    id: group.id,
    kind: group.kind,
    name: group.name,
    description: group.description,
    groupImage: group.groupImage,
    createdBy: group.createdBy,
    createdAt: group.createdAt.toISOString(),
    memberCount,
    lastMessage: group.lastMessage,
    lastMessageTime: group.lastMessageTime?.toISOString() ?? null,
    lastMessageSender: group.lastMessageSender,
    unread,
  };
}

function changed(
  ctx: AppContext,
  userIds: string[],
  groupId: string,
  change: 'created' | 'members' | 'joined' | 'left' | 'deleted',
) {
  ctx.realtime.toUsers(userIds, { type: 'group.changed', groupId, change });
}

export async function listGroups(ctx: AppContext, userId: string, kind: GroupKind): Promise<GroupList> {
  let rows = await repo.groupsOf(ctx.db, userId, kind);
  if (kind === 'hot') {
    const usable = await usableHotGroups(
      ctx.db,
      userId,
      rows.map((r) => r.group.id),
    );
    rows = rows.filter((r) => usable.has(r.group.id));
  }
  const unread = await unreadOfGroups(
    ctx.db,
    userId,
    rows.map((r) => r.group.id),
  );
  return { groups: rows.map((r) => summary(r.group, r.memberCount, unread.get(r.group.id) ?? 0)) };
}

/** True when the two students are in a group together (a report of a student needs them to have met). */
export const shareAGroup = (ctx: AppContext, a: string, b: string) => repo.shareAGroup(ctx.db, a, b);

/** The group's name, or null when there is no such group (push notices name it). */
export async function groupName(ctx: AppContext, groupId: string): Promise<string | null> {
  return (await repo.findGroup(ctx.db, groupId))?.group.name ?? null;
}

export async function getGroup(ctx: AppContext, userId: string, groupId: string): Promise<GroupDetail> {
  const found = await repo.findGroup(ctx.db, groupId);
  const memberIds = found ? await repo.membersInOrder(ctx.db, groupId) : [];
  if (!found || !memberIds.includes(userId)) throw forbidden(MSG.groups.notMember);
  if (found.group.kind === 'hot' && !(await mayUseHotGroup(ctx.db, userId, groupId))) {
    throw forbidden(MSG.groups.notMember);
  }
  // Students whose account is disabled (issue 24) stay members, but are not listed while disabled.
  const disabled = await profiles.moderation.disabledAmong(ctx.db, memberIds);
  const shown = memberIds.filter((id) => !disabled.has(id));
  const { unread: _unread, ...rest } = summary(found.group, shown.length, 0);
  const cards = await profiles.cards(ctx.db, shown);
  const list = shown.map((id) => ({ ...person({ id, ...cards.get(id) }), isAdmin: id === found.group.createdBy }));
  list.sort((a, b) => Number(b.isAdmin) - Number(a.isAdmin));
  return { ...rest, members: list };
}

/** Only the user's friends may be added; the user never counts as their own selection. */
async function assertFriends(db: Db, userId: string, ids: string[]): Promise<string[]> {
  const wanted = [...new Set(ids)].filter((id) => id !== userId);
  const friends = await friendships.friendsAmong(db, userId, wanted);
  if (wanted.some((id) => !friends.has(id))) throw forbidden(MSG.groups.onlyFriends);
  return wanted;
}

export async function createGroup(
  ctx: AppContext,
  userId: string,
  input: { name: string; description: string; memberIds: string[] },
): Promise<GroupDetail> {
  const id = randomUUID();
  const members = await inTx(ctx, async (db) => {
    const friends = await assertFriends(db, userId, input.memberIds);
    if (!friends.length) throw badRequest(MSG.groups.selectFriend, 'memberIds');
    await repo.insertGroup(db, {
      id,
      kind: 'group',
      name: input.name,
      description: input.description,
      createdBy: userId,
    });
    await repo.addMembers(db, id, [userId, ...friends]);
    return [userId, ...friends];
  });
  changed(ctx, members, id, 'created');
  return getGroup(ctx, userId, id);
}

export async function addMembers(
  ctx: AppContext,
  userId: string,
  groupId: string,
  input: AddMembersInput,
): Promise<GroupDetail> {
  const everyone = await inTx(ctx, async (db) => {
    const group = await repo.lockGroup(db, groupId);
    const current = group ? await repo.memberIds(db, groupId) : [];
    if (!current.includes(userId)) throw forbidden(MSG.groups.notAuthorized);
    if (group?.kind === 'hot' && !(await mayUseHotGroup(db, userId, groupId))) {
      throw forbidden(MSG.groups.notAuthorized);
    }
    const friends = await assertFriends(db, userId, input.memberIds);
    // A hot group is for the course's students only: each friend added must hold the course too.
    if (group?.kind === 'hot') {
      const holding = await Promise.all(friends.map((id) => mayUseHotGroup(db, id, groupId)));
      if (holding.includes(false)) throw forbidden(MSG.groups.notInCourse);
    }
    const added = await repo.addMembers(db, groupId, friends);
    return [...new Set([...current, ...added])];
  });
  changed(ctx, everyone, groupId, 'members');
  return getGroup(ctx, userId, groupId);
}

/** Removes the member; a regular group nobody is left in goes with its messages and files. */
export async function leaveGroup(ctx: AppContext, userId: string, groupId: string): Promise<void> {
  const outcome = await inTx(ctx, async (db) => {
    const group = await repo.lockGroup(db, groupId);
    if (!group || !(await repo.removeMember(db, groupId, userId))) throw forbidden(MSG.groups.notMember);
    const remaining = await repo.memberIds(db, groupId);
    const deleted = remaining.length === 0 && group.kind === 'group';
    if (deleted) {
      await deleteConversationMessages(db, { kind: 'group', id: groupId });
      await repo.deleteGroup(db, groupId);
    }
    return { remaining, deleted };
  });
  const ref = { kind: 'group' as const, id: groupId };
  ctx.realtime.revoke([userId], conversationTopic(ref));
  changed(ctx, [userId], groupId, 'left');
  changed(ctx, outcome.remaining, groupId, 'members');
  if (outcome.deleted) {
    await ctx.storage.deletePrefix(conversationFolder(ref)).catch((err: unknown) => {
      ctx.log.error({ err, groupId }, 'groups: could not delete the files of a deleted group');
    });
  }
}

/**
 * Takes a student out of a group on an admin's decision (issue 24): as if they had left it (a regular group nobody
 * is left in goes). 404 when there is no such group or the student is not in it.
 */
export async function removeFromGroup(ctx: AppContext, groupId: string, userId: string): Promise<{ name: string }> {
  const found = await repo.findGroup(ctx.db, groupId);
  if (!found || !(await repo.isMember(ctx.db, groupId, userId))) throw notFound();
  try {
    await leaveGroup(ctx, userId, groupId);
  } catch (err) {
    // Left in the meantime.
    if (err instanceof AppError && err.statusCode === 403) throw notFound();
    throw err;
  }
  return { name: found.group.name };
}

/**
 * Opening a coursework item's hot group creates it (the opener is its creator) or joins it. Only a student who
 * holds the course (imported coursework or profile courses) at the group's college gets in; the name is the
 * coursework item's title from the server's coursework cache, never the client's. A group whose creator does
 * not hold the course (made before these rules) passes to the opener, and members without the course leave.
 */
export async function openHotGroup(ctx: AppContext, userId: string, input: HotGroupInput): Promise<HotGroupResult> {
  const parts = { courseId: String(input.courseId), itemId: String(input.itemId) };
  const id = hotGroupIdFor(parts.courseId, parts.itemId);
  if (!hotGroupParts(id)) throw badRequest(MSG.groups.hotGroupInvalid);
  const opener = await hotGroupOpener(ctx.db, userId, parts);
  if (!opener?.holdsCourse) throw forbidden(MSG.groups.notInCourse);
  const itemName = opener.itemName?.trim().slice(0, GROUP_LIMITS.hotGroupNameMaxChars) || null;

  const outcome = await inTx(ctx, async (db) => {
    let group = await repo.lockGroup(db, id);
    let created = false;
    if (!group) {
      // Without the item in the student's imported coursework there is nothing to name the group after.
      if (!itemName) throw notFound(MSG.groups.hotGroupInvalid);
      created = await repo.insertGroup(db, { id, kind: 'hot', hotGroupId: id, name: itemName, createdBy: userId });
      group = await repo.lockGroup(db, id);
    }
    if (!group || group.kind !== 'hot') throw notFound(MSG.groups.hotGroupInvalid);
    if (!created) {
      const ownerCollege = await rightfulOwnerCollege(db, group.createdBy, parts.courseId);
      if (ownerCollege !== null && ownerCollege !== opener.college) throw forbidden(MSG.groups.notInCourse);
      const claim = ownerCollege === null;
      if (claim || (itemName && itemName !== group.name)) {
        await repo.updateGroup(db, id, {
          ...(claim ? { createdBy: userId } : {}),
          ...(itemName ? { name: itemName } : {}),
        });
      }
    }
    const removed = created ? [] : await removeMembersWithoutCourse(db, id, opener.college, parts.courseId);
    const joined = (await repo.addMembers(db, id, [userId])).length > 0;
    return { created, joined, removed, members: await repo.memberIds(db, id) };
  });
  if (outcome.removed.length) {
    ctx.realtime.revoke(outcome.removed, conversationTopic({ kind: 'group', id }));
    changed(ctx, outcome.removed, id, 'left');
  }
  if (outcome.joined || outcome.removed.length) {
    changed(ctx, outcome.members, id, outcome.created ? 'created' : outcome.joined ? 'joined' : 'members');
  }
  return { id, created: outcome.created };
}

/**
 * Takes the student out of the hot groups (theirs, or `groupIds`) of courses they no longer hold (issue 23: a
 * dropped course leaves at once): the membership goes, so live messages and push notices, which go to members,
 * stop; their sockets stop listening to the conversation on every instance; their tabs hear 'left' and the other
 * members 'members'. Returns the groups left.
 */
export async function leaveHotGroupsWithoutCourse(
  ctx: AppContext,
  userId: string,
  groupIds?: string[],
): Promise<string[]> {
  const ids = groupIds ?? (await repo.groupsOf(ctx.db, userId, 'hot')).map((r) => r.group.id);
  const usable = await usableHotGroups(ctx.db, userId, ids);
  const left: string[] = [];
  for (const id of ids.filter((g) => hotGroupParts(g) && !usable.has(g))) {
    const remaining = await inTx(ctx, async (db) => {
      await repo.lockGroup(db, id);
      // Again under the group's lock: a course taken up again in the meantime keeps the student in.
      if ((await mayUseHotGroup(db, userId, id)) || !(await repo.removeMember(db, id, userId))) return null;
      return repo.memberIds(db, id);
    });
    if (!remaining) continue;
    left.push(id);
    ctx.realtime.revoke([userId], conversationTopic({ kind: 'group', id }));
    changed(ctx, [userId], id, 'left');
    changed(ctx, remaining, id, 'members');
  }
  return left;
}

/** The user's friends (with a profile) to pick members from, by name. */
export async function friendOptions(ctx: AppContext, userId: string): Promise<FriendOptions> {
  const cards = await profiles.cards(ctx.db, await friendships.friendIds(ctx.db, userId));
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const sorted = [...cards.values()].sort((a, b) => byName(a.lowercaseName, b.lowercaseName) || byName(a.id, b.id));
  return { friends: sorted.map(person) };
}
