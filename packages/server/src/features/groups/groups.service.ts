import { randomUUID } from 'node:crypto';
import { conversationFolder, type PersonSummary } from '@studybuddy/shared/chat';
import {
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
import { badRequest, forbidden } from '../../platform/errors.ts';
import { deleteConversationMessages, unreadOfGroups } from '../chat/messages.service.ts';
import * as repo from './groups.repository.ts';

/** Spec §6 Groups: any member adds their own friends, anyone leaves; the creator is the admin. */

const inTx = <T>(ctx: AppContext, fn: (db: Db) => Promise<T>) => ctx.db.transaction((tx) => fn(tx as unknown as Db));

const person = (p: { id: string; name: string | null; profilePicture: string | null }): PersonSummary => ({
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
  const rows = await repo.groupsOf(ctx.db, userId, kind);
  const unread = await unreadOfGroups(
    ctx.db,
    userId,
    rows.map((r) => r.group.id),
  );
  return { groups: rows.map((r) => summary(r.group, r.memberCount, unread.get(r.group.id) ?? 0)) };
}

export async function getGroup(ctx: AppContext, userId: string, groupId: string): Promise<GroupDetail> {
  const found = await repo.findGroup(ctx.db, groupId);
  const members = found ? await repo.membersOf(ctx.db, groupId) : [];
  if (!found || !members.some((m) => m.id === userId)) throw forbidden(MSG.groups.notMember);
  const { unread: _unread, ...rest } = summary(found.group, found.memberCount, 0);
  const list = members.map((m) => ({ ...person(m), isAdmin: m.id === found.group.createdBy }));
  list.sort((a, b) => Number(b.isAdmin) - Number(a.isAdmin));
  return { ...rest, members: list };
}

/** Only the user's friends may be added; the user never counts as their own selection. */
async function assertFriends(db: Db, userId: string, ids: string[]): Promise<string[]> {
  const wanted = [...new Set(ids)].filter((id) => id !== userId);
  const friends = await repo.friendsAmong(db, userId, wanted);
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
    const friends = await assertFriends(db, userId, input.memberIds);
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

/** Opening a coursework item's hot group creates it (the opener is its creator) or joins it. */
export async function openHotGroup(ctx: AppContext, userId: string, input: HotGroupInput): Promise<HotGroupResult> {
  const id = hotGroupIdFor(input.courseId, input.itemId);
  const { created, joined, members } = await inTx(ctx, async (db) => {
    const created = await repo.insertGroup(db, {
      id,
      kind: 'hot',
      hotGroupId: id,
      name: input.name,
      createdBy: userId,
    });
    const joined = (await repo.addMembers(db, id, [userId])).length > 0;
    return { created, joined, members: joined ? await repo.memberIds(db, id) : [] };
  });
  if (joined) changed(ctx, members, id, created ? 'created' : 'joined');
  return { id, created };
}

export async function friendOptions(ctx: AppContext, userId: string): Promise<FriendOptions> {
  return { friends: (await repo.friendsOf(ctx.db, userId)).map(person) };
}
