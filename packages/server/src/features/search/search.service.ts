import { peerOf } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import type { CourseworkHit, MessageHit, SearchQuery, SearchResults } from '@studybuddy/shared/search';
import { SOCIAL_ERRORS } from '@studybuddy/shared/social';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { passage, textMatch, textQuery, tsquery, type TextQuery } from '../../platform/full-text.ts';
import { searchMessages } from '../chat/messages.service.ts';
import { findDocumentPages } from '../documents/page-search.service.ts';
import { findGroups, groupTitles } from '../groups/group-search.service.ts';
import { isHotGroupId } from '../groups/hot-group-access.service.ts';
import { cachedCourseworkAndCourses } from '../lms/coursework.service.ts';
import { findPeople, findSearcher } from '../profile/people-search.service.ts';
import { blocking } from '../social/blocks.service.ts';
import { friendships } from '../social/friendships.service.ts';

/**
 * The one search box (issue 17): everything the student may see that has the words, each kind from the feature
 * that owns it and decides who may see it. Nothing here reads a table. Two rounds of queries: who is searching
 * (profile, friends, group names), then the five kinds side by side.
 */

const EMPTY: SearchResults = { people: [], groups: [], messages: [], coursework: [], documents: [] };

export type SearchService = ReturnType<typeof createSearchService>;

/** The search box's service: each kind asked of the feature that owns it. */
export function createSearchService(ctx: AppContext) {
  return {
    /** 403 while the student's profile is incomplete (as for the social screens, requirements §6). */
    async search(userId: string, input: SearchQuery): Promise<SearchResults> {
      const results = await searchAll(ctx, userId, input);
      if (!results) throw new AppError(403, SOCIAL_ERRORS.profileIncomplete, MSG.profile.completeFirst);
      return results;
    },
  };
}

/** Null when the student's profile is incomplete (they may not search yet, as they may not use discovery). */
async function searchAll(ctx: AppContext, userId: string, input: SearchQuery): Promise<SearchResults | null> {
  const [me, friendNames, groupNames, hidden] = await Promise.all([
    findSearcher(ctx.db, userId),
    friendships.names(ctx.db, userId),
    groupTitles(ctx, userId),
    blocking.hiddenFrom(ctx.db, userId),
  ]);
  if (!me) return null;
  const q = textQuery(input.q);
  if (!q) return EMPTY;
  const [people, groups, messages, coursework, documents] = await Promise.all([
    // A blocked pair (issue 24) find neither each other nor each other's messages, either way.
    findPeople(ctx.db, { id: userId, college: me.college }, [...friendNames.keys()], q, input.limit, hidden),
    findGroups(ctx, userId, q, input.limit),
    findMessages(ctx, userId, { friendNames, groupNames }, q, input.limit, hidden),
    findCoursework(ctx, userId, q, input.limit),
    findDocumentPages(ctx, userId, me.courses, q, input.limit),
  ]);
  return { people, groups, messages, coursework, documents };
}

async function findMessages(
  ctx: AppContext,
  userId: string,
  titles: { friendNames: Map<string, string>; groupNames: Map<string, string> },
  q: TextQuery,
  limit: number,
  exceptSenders: string[],
): Promise<MessageHit[]> {
  const found = await searchMessages(ctx, userId, tsquery(q), limit, exceptSenders);
  return found.map((message) => {
    const { conversation } = message;
    const peerId = conversation.kind === 'chat' ? peerOf(conversation.id, userId) : null;
    const title = peerId ? titles.friendNames.get(peerId) : titles.groupNames.get(conversation.id);
    return {
      id: message.id,
      cursor: message.cursor,
      conversation,
      title: title?.trim() || MSG.chat.anonymous,
      peerId,
      groupKind: conversation.kind === 'group' ? (isHotGroupId(conversation.id) ? 'hot' : 'group') : null,
      senderName: message.senderId ? message.senderName : MSG.chat.deletedUser,
      createdAt: message.createdAt,
      snippet: passage(message.content, q),
    };
  });
}

/**
 * Coursework items of the student's imported courses (the LMS cache, a short list kept as one JSON value, so
 * matched here with the database's rules): upcoming first (soonest), then past (latest), then undated.
 */
async function findCoursework(ctx: AppContext, userId: string, q: TextQuery, limit: number): Promise<CourseworkHit[]> {
  const cache = await cachedCourseworkAndCourses(ctx, userId);
  if (!cache) return [];
  const courseNames = new Map(cache.courses.map((c) => [c.id, c.name]));
  const now = Date.now();
  const due = (d: string | null) => (d ? Date.parse(d) : NaN);
  const order = (d: string | null) => {
    const t = due(d);
    return Number.isNaN(t) ? [2, 0] : t >= now ? [0, t] : [1, -t];
  };
  return cache.coursework
    .flatMap((item) => {
      const name = textMatch(item.name, q);
      return name ? [{ item, name }] : [];
    })
    .sort((a, b) => {
      const [ga, ta] = order(a.item.due_date);
      const [gb, tb] = order(b.item.due_date);
      return ga! - gb! || ta! - tb! || a.item.name.localeCompare(b.item.name);
    })
    .slice(0, limit)
    .map(({ item, name }) => ({
      id: item.id,
      type: item.type,
      name,
      courseId: item.course_id,
      courseName: courseNames.get(item.course_id) ?? '',
      dueDate: item.due_date,
    }));
}
