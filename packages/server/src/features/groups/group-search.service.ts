import type { GroupHit } from '@studybuddy/shared/search';
import type { AppContext } from '../../platform/context.ts';
import { textMatch, tsquery, type TextQuery } from '../../platform/full-text.ts';
import { memberGroupNames, searchMemberGroups } from './group-search.repository.ts';
import { usableHotGroups } from './hot-group-access.service.ts';

/** Hot groups searched beyond the limit, in case some turn out to be closed to the student (lost the course). */
const HOT_SPARE = 10;

/** The student's groups whose name or description has the words; a hot group only while they hold its course. */
export async function findGroups(ctx: AppContext, userId: string, q: TextQuery, limit: number): Promise<GroupHit[]> {
  const found = await searchMemberGroups(ctx.db, userId, tsquery(q), limit + HOT_SPARE);
  const hot = found.filter((g) => g.kind === 'hot').map((g) => g.id);
  const usable = hot.length ? await usableHotGroups(ctx.db, userId, hot) : new Set<string>();
  return found
    .filter((g) => g.kind !== 'hot' || usable.has(g.id))
    .slice(0, limit)
    .map((g) => ({
      id: g.id,
      kind: g.kind,
      name: textMatch(g.name, q) ?? { text: g.name, marks: [], cutStart: false, cutEnd: false },
      description: g.description,
      groupImage: g.groupImage,
    }));
}

/** The names of the student's groups by id, for results that name their group (messages). */
export const groupTitles = (ctx: AppContext, userId: string) => memberGroupNames(ctx.db, userId);
