import type { AppContext } from '../../platform/context.ts';
import { registerAccountCleanup } from '../auth/account-deletion.service.ts';
import { leaveAllGroups } from './account-data.service.ts';
import { groupConversationRule } from './group-conversations.ts';
import { groupsRoutes } from './groups.routes.ts';
import { leaveHotGroupsWithoutCourse } from './groups.service.ts';
import { studyGroupsRoutes } from './study-groups.routes.ts';
import { createStudyGroupsService } from './study-groups.service.ts';

/**
 * Groups and hot groups; their conversations' access rule is given to the chat feature, and a course change
 * takes a student out of the hot groups of courses they no longer hold.
 */
export function groupsFeature(ctx: AppContext) {
  ctx.registry.conversationKinds.set('group', groupConversationRule(ctx));
  // A student who drops a course (profile, Canvas) leaves its hot groups at once.
  ctx.registry.courseListeners.push(async (userId) => {
    await leaveHotGroupsWithoutCourse(ctx, userId).catch((err: unknown) => {
      ctx.log.error({ err, userId }, 'groups: could not take a student out of the hot groups of dropped courses');
    });
  });
  // A deleted account leaves its groups; groups nobody is left in go.
  registerAccountCleanup(ctx, (userId) => leaveAllGroups(ctx, userId));
  const routes = groupsRoutes(ctx);
  // "Find a study group" (issue 27 part 5): classmates by free time, invited to a new group.
  const studyGroups = studyGroupsRoutes(createStudyGroupsService(ctx), ctx.config.rateLimits);
  return async (app: Parameters<typeof routes>[0]) => {
    await routes(app);
    await app.register(studyGroups);
  };
}
