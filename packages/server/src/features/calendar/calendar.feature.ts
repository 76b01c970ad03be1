import type { AppContext } from '../../platform/context.ts';
import { calendarRoutes } from './calendar.routes.ts';
import { createCalendarService } from './calendar.service.ts';

/** Calendar export (.ics feed, Google Calendar); a deleted account also gives up its Google grant. */
export function calendarFeature(ctx: AppContext) {
  const calendar = createCalendarService({ ctx });
  // Best-effort: it never stops the deletion.
  ctx.registry.accountCleanups.push(async (userId) => {
    try {
      await calendar.disconnect(userId);
    } catch (err) {
      ctx.log.warn({ userId, err }, 'Google Calendar disconnect on account deletion failed');
    }
  });
  return calendarRoutes(calendar, { secure: ctx.config.publicUrl.startsWith('https:') });
}
