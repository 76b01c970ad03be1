import { randomUUID } from 'node:crypto';
import { chatIdFor, peerOf, type ChatMessage, type ConversationRef } from '@studybuddy/shared/chat';
import { MODERATION_MSG as MSG } from '@studybuddy/shared/messages/moderation';
import {
  MODERATION_LIMITS,
  reportInputSchema,
  type ReportInput,
  type ReportReceived,
  type ReportSnapshot,
  type SnapshotMessage,
} from '@studybuddy/shared/moderation';
import type { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { createQuota, DAY_MS } from '../../platform/quota.ts';
import { latestMessages, mayReadConversation, messageWithContext } from '../chat/messages.service.ts';
import { groupName, shareAGroup } from '../groups/groups.service.ts';
import { profiles } from '../profile/profiles.service.ts';
import { friendships } from '../social/friendships.service.ts';
import * as repo from './moderation.repository.ts';

/**
 * Reports (issue 24 point 2): a student reports another student or a message they can see. One report per
 * reporter and target (a repeat answers the same confirmation); at most QUOTA_REPORTS_PER_DAY a day. The report
 * keeps a copy of what was reported: the message and the five before it, or the student's card and the end of
 * the reporter's chat with them. The reporter hears only that it was received.
 */

type ParsedReport = z.output<typeof reportInputSchema>;

const snapshotOf = (m: ChatMessage, reported: boolean): SnapshotMessage => ({
  id: m.id,
  senderId: m.senderId,
  senderName: m.senderName,
  type: m.type,
  content: m.content,
  createdAt: m.createdAt,
  reported,
});

async function studentCard(ctx: AppContext, userId: string | null): Promise<ReportSnapshot['student']> {
  if (!userId) return null;
  const card = (await profiles.cards(ctx.db, [userId])).get(userId);
  return card
    ? { id: card.id, name: card.name, profilePicture: card.profilePicture, major: card.major, year: card.year }
    : null;
}

/**
 * Whether the reporter may see the student: they have met (same college, friends, a chat between them, a group
 * together). A student without a profile is nobody anyone sees.
 */
async function maySeeStudent(ctx: AppContext, reporterId: string, userId: string): Promise<boolean> {
  const [them, me] = await Promise.all([profiles.member(ctx.db, userId), profiles.member(ctx.db, reporterId)]);
  if (!them) return false;
  if (me && me.college === them.college) return true;
  if (await friendships.areFriends(ctx.db, reporterId, userId)) return true;
  const chat: ConversationRef = { kind: 'chat', id: chatIdFor(reporterId, userId) };
  if ((await latestMessages(ctx, chat, 1)).length) return true;
  return shareAGroup(ctx, reporterId, userId);
}

/**
 * Whether the reporter may see a message: a one-to-one chat they are one of the two of (even after unfriending or
 * blocking: the history stays theirs), or a group they may read now.
 */
async function maySeeMessage(ctx: AppContext, reporterId: string, ref: ConversationRef): Promise<boolean> {
  if (ref.kind === 'chat') return peerOf(ref.id, reporterId) !== null;
  return mayReadConversation(ctx, reporterId, ref);
}

interface Prepared {
  reportedUserId: string | null;
  snapshot: ReportSnapshot;
}

async function prepareStudent(ctx: AppContext, reporterId: string, userId: string): Promise<Prepared> {
  if (userId === reporterId) throw badRequest(MSG.report.notYourself, 'targetId');
  if (!(await maySeeStudent(ctx, reporterId, userId))) throw notFound();
  const chat: ConversationRef = { kind: 'chat', id: chatIdFor(reporterId, userId) };
  const recent = await latestMessages(ctx, chat, MODERATION_LIMITS.contextMessages + 1);
  return {
    reportedUserId: userId,
    snapshot: {
      student: await studentCard(ctx, userId),
      conversation: recent.length ? { ...chat, title: null } : null,
      messages: recent.map((m) => snapshotOf(m, false)),
    },
  };
}

async function prepareMessage(ctx: AppContext, reporterId: string, messageId: string): Promise<Prepared> {
  const found = await messageWithContext(ctx, messageId, MODERATION_LIMITS.contextMessages);
  if (!found || !(await maySeeMessage(ctx, reporterId, found.message.conversation))) throw notFound();
  const { message, context } = found;
  if (message.senderId === reporterId) throw badRequest(MSG.report.notYourself, 'targetId');
  const ref = message.conversation;
  return {
    reportedUserId: message.senderId,
    snapshot: {
      student: await studentCard(ctx, message.senderId),
      conversation: { ...ref, title: ref.kind === 'group' ? await groupName(ctx, ref.id) : null },
      messages: [...context.map((m) => snapshotOf(m, false)), snapshotOf(message, true)],
    },
  };
}

export function createReportService(ctx: AppContext) {
  const quota = createQuota(ctx.db);
  const perDay = {
    what: MSG.report.perDay,
    limit: ctx.config.limits.reportsPerDay,
    windowMs: DAY_MS,
  };
  return {
    /**
     * Files a report, or answers the one the reporter filed on the same target before (`created` false). 404 for a
     * target that does not exist or the reporter may not see; 400 for themselves or their own message.
     */
    async report(
      reporterId: string,
      input: ReportInput | ParsedReport,
    ): Promise<ReportReceived & { created: boolean }> {
      const parsed = reportInputSchema.parse(input);
      // A repeat is answered like the first time, even when the message has been deleted since.
      const earlier = await repo.findReportOf(ctx.db, reporterId, parsed.targetKind, parsed.targetId);
      if (earlier) return { id: earlier.id, received: true, created: false };
      const prepared =
        parsed.targetKind === 'student'
          ? await prepareStudent(ctx, reporterId, parsed.targetId)
          : await prepareMessage(ctx, reporterId, parsed.targetId);
      const quotaKey = `reports:user:${reporterId}`;
      await quota.consume(quotaKey, perDay);
      const id = randomUUID();
      let stored: boolean;
      try {
        stored = await repo.insertReport(ctx.db, {
          id,
          reporterId,
          targetKind: parsed.targetKind,
          targetId: parsed.targetId,
          reportedUserId: prepared.reportedUserId,
          reason: parsed.reason,
          details: parsed.details,
          snapshot: prepared.snapshot,
        });
      } catch (err) {
        await quota.refund(quotaKey);
        throw err;
      }
      if (stored) return { id, received: true, created: true };
      // The same report sent twice at once: the other one was stored.
      await quota.refund(quotaKey);
      const other = await repo.findReportOf(ctx.db, reporterId, parsed.targetKind, parsed.targetId);
      if (!other) throw new Error('report conflict without a stored report');
      return { id: other.id, received: true, created: false };
    },
  };
}

export type ReportService = ReturnType<typeof createReportService>;
