import { z } from 'zod';
import { SCHEDULE_MSG } from './messages/schedule.ts';

/**
 * Free time entered once (issue 27 parts 1, 2 and 5): the contract of "My week", `.ics` imports, "Find a time"
 * and the free-time signal of matching. A week is 336 half-hour cells in the student's own IANA time zone,
 * Monday 00:00 first (cell = day * 48 + half-hour of the day); '1' is free, '0' busy.
 */
export const SCHEDULE_LIMITS = {
  cellMinutes: 30,
  cellsPerDay: 48,
  cellsPerWeek: 336,
  /** Find a time looks at the next two weeks. */
  windowDays: 14,
  windowCells: 672,
  icsMaxBytes: 2 * 1024 * 1024,
  icsMaxOccurrences: 5000,
  icsTimeoutMs: 5000,
  /** Imported events are expanded from a day back to this many days ahead (re-read daily). */
  importDaysAhead: 28,
  icsUrlMaxChars: 2000,
  /** A proposed slot is 30 minutes to 8 hours long. */
  minSlotMinutes: 30,
  maxSlotMinutes: 480,
  /** "Skip the hours before a due date": 0 (off) to 72 hours. */
  maxSkipBeforeDueHours: 72,
  proposals: 3,
  /** Manual overrides of imported busy blocks a student may keep. */
  maxOverrides: 2000,
} as const;

export const weekCellsSchema = z
  .string({ error: SCHEDULE_MSG.schedule.badCells })
  .regex(/^[01]{336}$/, SCHEDULE_MSG.schedule.badCells);
export type WeekCells = z.infer<typeof weekCellsSchema>;

/** An IANA zone name the server's Intl knows (e.g. Europe/Berlin). */
export const timeZoneSchema = z
  .string({ error: SCHEDULE_MSG.schedule.badTimeZone })
  .max(64)
  .refine((tz) => isTimeZone(tz), SCHEDULE_MSG.schedule.badTimeZone);

export function isTimeZone(tz: string): boolean {
  if (!tz || !/^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)*$/.test(tz)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** PUT /api/schedule/week */
export const saveWeekInputSchema = z.object({ timeZone: timeZoneSchema, cells: weekCellsSchema });
export type SaveWeekInput = z.infer<typeof saveWeekInputSchema>;

/** One imported busy block, shown only to its owner. `key` names the occurrence (`uid@startISO`). */
export const busyBlockSchema = z.object({
  key: z.string(),
  /** The event's UID: overriding it frees every occurrence of the series. */
  seriesKey: z.string(),
  title: z.string(),
  start: z.string(),
  end: z.string(),
  /** The student marked it free (the override layer): it no longer counts as busy. */
  overridden: z.boolean(),
});
export type BusyBlock = z.infer<typeof busyBlockSchema>;

export const importStateSchema = z.object({
  kind: z.enum(['none', 'file', 'url']),
  /** The address (url) or the file's name. */
  source: z.string(),
  lastImportAt: z.string().nullable(),
  /** Why the last re-read failed (the schedule of the read before is kept). */
  lastError: z.string().nullable(),
  events: z.number(),
});
export type ImportState = z.infer<typeof importStateSchema>;

/** GET /api/schedule: the student's own week, import and busy blocks of the next two weeks. */
export const myScheduleSchema = z.object({
  timeZone: z.string(),
  cells: z.string(),
  /** False until the student saved a week once. */
  saved: z.boolean(),
  import: importStateSchema,
  busy: z.array(busyBlockSchema),
});
export type MySchedule = z.infer<typeof myScheduleSchema>;

/** POST /api/schedule/import/url */
export const importUrlInputSchema = z.object({
  url: z
    .string({ error: SCHEDULE_MSG.schedule.urlRequired })
    .trim()
    .min(1, SCHEDULE_MSG.schedule.urlRequired)
    .max(SCHEDULE_LIMITS.icsUrlMaxChars, SCHEDULE_MSG.schedule.urlTooLong),
});
/** POST /api/schedule/import/file: the file's text (the web app reads it; the server checks its size). */
export const importFileInputSchema = z.object({
  fileName: z.string().trim().max(200).default('calendar.ics'),
  content: z.string({ error: SCHEDULE_MSG.schedule.fileRequired }).min(1, SCHEDULE_MSG.schedule.fileRequired),
});
export const importResultSchema = z.object({ import: importStateSchema, busy: z.array(busyBlockSchema) });
export type ImportResult = z.infer<typeof importResultSchema>;

/** PUT /api/schedule/overrides: mark an imported block (occurrence key or series key) free, or busy again. */
export const overrideInputSchema = z.object({ key: z.string().min(1).max(1200), free: z.boolean() });
export type OverrideInput = z.infer<typeof overrideInputSchema>;

/** Query of GET /api/groups/:groupId/find-a-time and GET /api/friends/:friendId/find-a-time. */
export const findATimeQuerySchema = z.object({
  length: z.coerce
    .number({ error: SCHEDULE_MSG.findTime.badLength })
    .int(SCHEDULE_MSG.findTime.badLength)
    .min(SCHEDULE_LIMITS.minSlotMinutes, SCHEDULE_MSG.findTime.badLength)
    .max(SCHEDULE_LIMITS.maxSlotMinutes, SCHEDULE_MSG.findTime.badLength)
    .refine((m) => m % SCHEDULE_LIMITS.cellMinutes === 0, SCHEDULE_MSG.findTime.badLength)
    .default(60),
  /** Hours before a member's Canvas due date (of the group's course) that count as busy; 0 = off. */
  skipDue: z.coerce
    .number({ error: SCHEDULE_MSG.findTime.badSkip })
    .int(SCHEDULE_MSG.findTime.badSkip)
    .min(0, SCHEDULE_MSG.findTime.badSkip)
    .max(SCHEDULE_LIMITS.maxSkipBeforeDueHours, SCHEDULE_MSG.findTime.badSkip)
    .default(0),
});
export type FindATimeQuery = z.infer<typeof findATimeQuerySchema>;

export const proposedSlotSchema = z.object({
  start: z.string(),
  end: z.string(),
  /** Members free for the whole slot. */
  freeCount: z.number(),
  memberCount: z.number(),
});
export type ProposedSlot = z.infer<typeof proposedSlotSchema>;

/**
 * The heat map: `counts[i]` members free in the half hour starting at windowStart + i * 30 min (UTC instants;
 * the web app lays them out in the viewer's zone). Only counts: never whose cells or which events.
 */
export const findATimeResultSchema = z.object({
  windowStart: z.string(),
  cellMinutes: z.number(),
  memberCount: z.number(),
  counts: z.array(z.number()),
  slots: z.array(proposedSlotSchema),
  /** True when the group has a course and due dates were skipped. */
  dueDatesSkipped: z.boolean(),
  /** Whether the group has a course whose due dates can be skipped (the setting is shown only then). */
  canSkipDueDates: z.boolean(),
});
export type FindATimeResult = z.infer<typeof findATimeResultSchema>;

/** "free together: Tue 14:00–16:00" on a match card: the longest shared block, in the viewer's zone. */
export const freeTogetherSchema = z.object({
  /** 0 = Monday. */
  day: z.number(),
  startMinute: z.number(),
  endMinute: z.number(),
  /** Shared free half hours in a week. */
  cells: z.number(),
});
export type FreeTogether = z.infer<typeof freeTogetherSchema>;

const DAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
const hhmm = (minute: number) =>
  `${String(Math.floor(minute / 60) % 24).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/** "Tue 14:00–16:00" */
export function freeTogetherLabel(f: Pick<FreeTogether, 'day' | 'startMinute' | 'endMinute'>): string {
  return `${DAY_NAMES[f.day] ?? ''} ${hhmm(f.startMinute)}–${hhmm(f.endMinute)}`;
}
