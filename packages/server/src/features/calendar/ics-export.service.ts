import type { IcsExportInput } from '@studybuddy/shared/calendar';
import type { AppContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import type { CalendarEntry } from '../../platform/registry.ts';
import { itemsToExport } from './export-items.ts';
import { buildIcs } from './ics.ts';
import { profiles } from '../profile/profiles.service.ts';

/** The chosen items as an .ics file (works with any calendar app, no Google account needed). */
export async function exportIcs(ctx: AppContext, userId: string, input: IcsExportInput): Promise<string> {
  const items = await itemsToExport(ctx, userId, input.item_ids);
  const email = await profiles.email(ctx.db, userId);
  if (!email) throw notFound();
  return buildIcs(items, { userId, email });
}

/** Other features' events as an .ics file of their own (a study session's "Add to calendar"). */
export const entriesIcs = (entries: CalendarEntry[]): string => buildIcs([], { userId: '', email: '' }, entries);
