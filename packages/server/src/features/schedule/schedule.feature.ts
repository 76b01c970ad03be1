import type { AppContext } from '../../platform/context.ts';
import { createJobQueue, type JobQueueOptions } from '../../platform/jobs/job-queue.ts';
import { createScheduleImportService } from './schedule-import.service.ts';
import { scheduleRoutes } from './schedule.routes.ts';
import { createScheduleService } from './schedule.service.ts';

const REREAD = 'schedule.reread';
const RANK_REFRESH = 'schedule.rank-refresh';
const DAY_MS = 86_400_000;

export interface ScheduleOptions {
  queue?: JobQueueOptions;
}

/** Free time: my week, .ics imports re-read daily through the job queue, Find a time (issue 27 parts 1, 2, 5). */
export function scheduleFeature(ctx: AppContext, options: ScheduleOptions = {}) {
  const schedule = createScheduleService(ctx);
  ctx.registry.matchTiebreaks.push(schedule.freeTimeTiebreak);
  const queue = createJobQueue(ctx.database, ctx.log, options.queue);
  const scheduleReread = async (userId: string) => {
    const runAt = new Date(Date.now() + DAY_MS);
    // Keyed by the day it runs: the running job can queue tomorrow's, a second import today adds none.
    const dedupeKey = `${REREAD}:${userId}:${Math.floor(runAt.getTime() / DAY_MS)}`;
    await queue.enqueue(REREAD, { userId }, { owner: userId, dedupeKey, runAt });
  };
  const imports = createScheduleImportService(ctx, scheduleReread);
  queue.define<{ userId: string }>({
    kind: REREAD,
    maxAttempts: 3,
    async handler({ userId }) {
      if (await imports.reread(userId)) await scheduleReread(userId);
    },
  });
  // Daily: the ranking bits computed in an earlier week are computed again from this week's Monday.
  const scheduleRankRefresh = async (runAt: Date) => {
    const dedupeKey = `${RANK_REFRESH}:${Math.floor(runAt.getTime() / DAY_MS)}`;
    await queue.enqueue(RANK_REFRESH, {}, { dedupeKey, runAt });
  };
  queue.define<Record<string, never>>({
    kind: RANK_REFRESH,
    maxAttempts: 3,
    async handler() {
      await schedule.refreshStaleRankings();
      await scheduleRankRefresh(new Date((Math.floor(Date.now() / DAY_MS) + 1) * DAY_MS + 5 * 60_000));
    },
  });
  const routes = scheduleRoutes(schedule, imports);
  return async (app: Parameters<typeof routes>[0]) => {
    app.addHook('onReady', async () => {
      await queue.start();
      await scheduleRankRefresh(new Date());
    });
    app.addHook('preClose', () => queue.stop());
    await routes(app);
  };
}
