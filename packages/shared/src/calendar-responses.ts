import { z } from 'zod';

/** What the calendar export API answers (response schemas; the web's types are inferred from them). */

export const calendarStatusSchema = z.object({
  google: z.object({
    /** The server has Google credentials (GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET). */
    configured: z.boolean(),
    /** A stored token that is still valid or can be refreshed: no new consent is needed. */
    connected: z.boolean(),
    /** The calendar chosen last time. */
    calendar_id: z.string().nullable(),
  }),
});
export type CalendarStatus = z.infer<typeof calendarStatusSchema>;

export const googleCalendarEntrySchema = z.object({ id: z.string(), summary: z.string(), primary: z.boolean() });
export type GoogleCalendarEntry = z.infer<typeof googleCalendarEntrySchema>;

export const googleCalendarsResponseSchema = z.object({ calendars: z.array(googleCalendarEntrySchema) });
export type GoogleCalendarsResponse = z.infer<typeof googleCalendarsResponseSchema>;

export const exportItemResultSchema = z.object({
  id: z.string(),
  name: z.string(),
  ok: z.boolean(),
  /** The created event's link (Google's htmlLink). */
  html_link: z.string().nullable(),
});
export type ExportItemResult = z.infer<typeof exportItemResultSchema>;

export const googleExportResponseSchema = z.object({
  results: z.array(exportItemResultSchema),
  /** The first created event's link (opened in a new tab), null when none was created. */
  first_link: z.string().nullable(),
  /** Names of the items that failed. */
  failed: z.array(z.string()),
});
export type GoogleExportResponse = z.infer<typeof googleExportResponseSchema>;

export const calendarFeedResponseSchema = z.object({
  /** The private subscription address, or null when there is none. */
  url: z.string().nullable(),
});
export type CalendarFeedResponse = z.infer<typeof calendarFeedResponseSchema>;
