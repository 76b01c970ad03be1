import type { AppContext } from '../../platform/context.ts';
import { scheduleOfStudent } from './account-data.repository.ts';

/**
 * "Download my data" (issue 27 part 1 with issue 24): the student's week (30-minute cells from Monday 00:00 in
 * their zone, 1 = free), their .ics import and the busy times read from it, and what they marked free anyway.
 */
export async function scheduleForExport(ctx: AppContext, userId: string) {
  const { week, imported, busy, overrides } = await scheduleOfStudent(ctx.db, userId);
  const free = new Set(overrides.map((o) => o.key));
  return {
    week: week && { timeZone: week.timeZone, cellMinutes: 30, cells: week.cells, updatedAt: week.updatedAt },
    import: imported && {
      kind: imported.kind,
      source: imported.source,
      lastImportAt: imported.lastImportAt?.toISOString() ?? null,
      lastError: imported.lastError,
    },
    busy: busy.map((b) => ({
      title: b.title,
      start: b.startsAt.toISOString(),
      end: b.endsAt.toISOString(),
      markedFree: free.has(b.key) || free.has(b.seriesKey),
    })),
  };
}
