import type { AppContext } from '../../platform/context.ts';
import { createJobQueue, type JobQueueOptions } from '../../platform/jobs/job-queue.ts';
import { REMINDER_JOB } from './session-notices.ts';
import { createStudySessionsService } from './study-sessions.service.ts';
import { studySessionsRoutes } from './study-sessions.routes.ts';

/**
 * Study sessions and their focus timer (issue 27 points 3 and 4): the routes, the students' sessions in their
 * calendar feeds, and the reminders, which the database job queue runs at their time on whichever instance is free.
 */
export function studySessionsFeature(ctx: AppContext, options: { queue?: JobQueueOptions } = {}) {
  const queue = createJobQueue(ctx.database, ctx.log, { pollMs: 5000, ...options.queue });
  const sessions = createStudySessionsService(ctx, queue);
  ctx.registry.calendarSources.push((userId, now) => sessions.calendarEntries(userId, now));
  queue.define<{ sessionId: string; sequence: number }>({
    kind: REMINDER_JOB,
    maxAttempts: 3,
    handler: async (payload) => {
      await sessions.sendReminder(payload);
    },
  });
  const routes = studySessionsRoutes(ctx, sessions);
  return async (app: Parameters<typeof routes>[0]) => {
    app.addHook('onReady', () => queue.start());
    app.addHook('preClose', () => queue.stop());
    await routes(app);
  };
}
