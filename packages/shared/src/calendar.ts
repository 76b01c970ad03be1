import { z } from 'zod';
import { LIMITS } from './limits.ts';
import { MSG } from './messages.ts';

/** Calendar export (requirements §2, §3 Calendar event built for export, §4 Calendar connect, §7 calendar client). */

/** The Google Calendar v3 event body of requirements §3: exactly these fields. */
export interface CalendarEventBody {
  summary: string;
  description: string;
  start: { dateTime: string };
  end: { dateTime: string };
  reminders: { useDefault: false; overrides: { method: 'email' | 'popup'; minutes: number }[] };
}

/** The §3 event for an item due at `due`: starts 10 minutes before, ends at the due time, two reminders. */
export function calendarEventFor(name: string, due: string | Date): CalendarEventBody {
  const end = new Date(due);
  if (Number.isNaN(end.getTime())) throw new RangeError(`not a date: ${String(due)}`);
  const start = new Date(end.getTime() - LIMITS.calendarEventLeadMinutes * 60_000);
  return {
    summary: name,
    description: MSG.calendar.eventDescription,
    start: { dateTime: start.toISOString() },
    end: { dateTime: end.toISOString() },
    reminders: {
      useDefault: false,
      overrides: [
        { method: 'email', minutes: LIMITS.calendarEmailReminderMinutes },
        { method: 'popup', minutes: LIMITS.calendarPopupReminderMinutes },
      ],
    },
  };
}

/** Coursework item ids to export, in the order chosen (duplicates dropped by the server). */
export const exportItemIdsSchema = z
  .array(z.string().trim().min(1).max(200), { error: MSG.calendar.noneSelected })
  .min(1, MSG.calendar.noneSelected)
  .max(LIMITS.calendarExportMax, MSG.calendar.tooMany(LIMITS.calendarExportMax));

export const googleExportInputSchema = z.object({
  calendar_id: z
    .string({ error: MSG.calendar.calendarRequired })
    .trim()
    .min(1, MSG.calendar.calendarRequired)
    .max(1024),
  item_ids: exportItemIdsSchema,
});
export type GoogleExportInput = z.infer<typeof googleExportInputSchema>;

export const icsExportInputSchema = z.object({ item_ids: exportItemIdsSchema });
export type IcsExportInput = z.infer<typeof icsExportInputSchema>;

export type {
  CalendarFeedResponse,
  CalendarStatus,
  ExportItemResult,
  GoogleCalendarEntry,
  GoogleCalendarsResponse,
  GoogleExportResponse,
} from './calendar-responses.ts';

/** After Google's consent page the server sends the browser to /assignments?calendar=<outcome>. */
export const CALENDAR_RETURN_PARAM = 'calendar';
export const CALENDAR_RETURN = { connected: 'connected', denied: 'denied', failed: 'failed' } as const;
export type CalendarReturn = (typeof CALENDAR_RETURN)[keyof typeof CALENDAR_RETURN];
