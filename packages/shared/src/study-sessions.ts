import { z } from 'zod';
import { conversationRefSchema } from './chat.ts';
import { timeZoneSchema } from './lms.ts';
import { MSG } from './messages.ts';

/**
 * Study sessions and their shared focus timer (issue 27 points 3 and 4). A session is planned in a group or a
 * friends' chat for a wall-clock time in the planner's time zone; the server stores the UTC instant and the zone.
 */

export const STUDY_SESSION_LIMITS = {
  minMinutes: 15,
  /** Issue 27: a session longer than 8 hours is refused. */
  maxMinutes: 8 * 60,
  titleMax: 100,
  courseMax: 100,
  placeMax: 200,
  goalMax: 200,
  reminderDefault: 15,
  reminderMax: 24 * 60,
  focusDefault: 25,
  breakDefault: 5,
  /** Upcoming (not cancelled, not ended) sessions one conversation may hold. */
  upcomingPerConversation: 20,
  /** Sessions a student may plan per day. */
  createdPerDay: 30,
  /** A student is present while their room page has reported within this long. */
  presenceSeconds: 45,
  /** How often an open room reports. */
  heartbeatSeconds: 15,
} as const;

export const RSVP_ANSWERS = ['going', 'maybe', 'cant'] as const;
export type RsvpAnswer = (typeof RSVP_ANSWERS)[number];

/** A wall-clock date and time as a date and a time input give it: `2026-11-03T14:00`. */
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

const wallParts = (instant: number, timeZone: string) => {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return { y: get('year'), mo: get('month'), d: get('day'), h: get('hour'), mi: get('minute') };
};

/** The wall-clock time of an instant in a zone, as `YYYY-MM-DDTHH:mm`. */
export function wallTimeIn(instant: Date | string, timeZone: string): string {
  const p = wallParts(new Date(instant).getTime(), timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${p.y}-${two(p.mo)}-${two(p.d)}T${two(p.h)}:${two(p.mi)}`;
}

/**
 * The instant a wall-clock time names in a zone, with the zone's offset on that date (not today's): a session
 * planned in October for a November date keeps its wall-clock time after the clocks change. Null for a time the
 * zone skips (the hour the clocks go forward); of a time that happens twice (the hour they go back), the first.
 */
export function zonedTimeToUtc(local: string, timeZone: string): Date | null {
  const m = LOCAL_DATE_TIME.exec(local);
  if (!m) return null;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  const asUtc = Date.UTC(y, mo - 1, d, h, mi);
  if (Number.isNaN(asUtc) || new Date(asUtc).getUTCDate() !== d || h > 23 || mi > 59) return null;
  // Try the offsets in force a day either side; the earliest candidate that reads back as the same wall time wins.
  const offsets = new Set(
    [-86_400_000, 0, 86_400_000].map((delta) => {
      const p = wallParts(asUtc + delta, timeZone);
      return Date.UTC(p.y, p.mo - 1, p.d, p.h, p.mi) - (asUtc + delta);
    }),
  );
  const candidates = [...offsets].map((offset) => asUtc - offset).sort((a, b) => a - b);
  const found = candidates.find((c) => wallTimeIn(new Date(c), timeZone) === local);
  return found === undefined ? null : new Date(found);
}

const title = z
  .string({ error: MSG.studySessions.titleRequired })
  .trim()
  .min(1, MSG.studySessions.titleRequired)
  .max(STUDY_SESSION_LIMITS.titleMax, MSG.studySessions.titleTooLong);

/** What the planner fills in; `start` is a wall-clock time in `timeZone` (the planner's). */
const fieldsShape = z.object({
  title,
  course: z
    .string()
    .trim()
    .max(STUDY_SESSION_LIMITS.courseMax, MSG.studySessions.courseTooLong)
    .optional()
    .transform((c) => c || null),
  start: z.string({ error: MSG.studySessions.badStart }).regex(LOCAL_DATE_TIME, MSG.studySessions.badStart),
  timeZone: timeZoneSchema,
  minutes: z
    .number({ error: MSG.studySessions.tooShort })
    .int(MSG.studySessions.tooShort)
    .min(STUDY_SESSION_LIMITS.minMinutes, MSG.studySessions.tooShort)
    .max(STUDY_SESSION_LIMITS.maxMinutes, MSG.studySessions.tooLong),
  online: z.boolean().default(false),
  place: z.string().trim().max(STUDY_SESSION_LIMITS.placeMax, MSG.studySessions.placeTooLong).default(''),
  reminderMinutes: z
    .number({ error: MSG.studySessions.badReminder })
    .int(MSG.studySessions.badReminder)
    .min(0, MSG.studySessions.badReminder)
    .max(STUDY_SESSION_LIMITS.reminderMax, MSG.studySessions.badReminder)
    .default(STUDY_SESSION_LIMITS.reminderDefault),
  focusMinutes: z
    .number({ error: MSG.studySessions.badCycle })
    .int(MSG.studySessions.badCycle)
    .min(5, MSG.studySessions.badCycle)
    .max(120, MSG.studySessions.badCycle)
    .default(STUDY_SESSION_LIMITS.focusDefault),
  breakMinutes: z
    .number({ error: MSG.studySessions.badCycle })
    .int(MSG.studySessions.badCycle)
    .min(1, MSG.studySessions.badCycle)
    .max(60, MSG.studySessions.badCycle)
    .default(STUDY_SESSION_LIMITS.breakDefault),
});

const placeGiven = (s: { online: boolean; place: string }, ctx: z.RefinementCtx) => {
  if (!s.online && !s.place)
    ctx.addIssue({ code: 'custom', path: ['place'], message: MSG.studySessions.placeRequired });
};

export const studySessionFieldsSchema = fieldsShape.superRefine(placeGiven);
export type StudySessionFields = z.input<typeof studySessionFieldsSchema>;
export type StudySessionValues = z.output<typeof studySessionFieldsSchema>;

export const createStudySessionSchema = fieldsShape
  .extend({ conversation: conversationRefSchema })
  .superRefine(placeGiven);
export type CreateStudySessionInput = z.input<typeof createStudySessionSchema>;

export const rsvpSchema = z.object({ answer: z.enum(RSVP_ANSWERS) });
export type RsvpInput = z.infer<typeof rsvpSchema>;

export const STUDY_SESSION_STATUSES = ['scheduled', 'cancelled', 'ended'] as const;

export const studySessionSchema = z.object({
  id: z.string(),
  conversation: z.object({ kind: z.enum(['chat', 'group']), id: z.string() }),
  /** The group's name, or the friend's in a chat (as the viewer sees it). */
  conversationName: z.string(),
  title: z.string(),
  course: z.string().nullable(),
  start: z.string().describe('ISO 8601 UTC instant'),
  end: z.string(),
  minutes: z.number(),
  /** The planner's IANA zone: `start` is the wall-clock time it was planned for there. */
  timeZone: z.string(),
  online: z.boolean(),
  place: z.string(),
  reminderMinutes: z.number(),
  focusMinutes: z.number(),
  breakMinutes: z.number(),
  status: z.enum(STUDY_SESSION_STATUSES),
  /** Goes up with every change (the calendar's SEQUENCE). */
  sequence: z.number(),
  createdBy: z.object({ id: z.string().nullable(), name: z.string() }),
  rsvps: z.array(z.object({ userId: z.string(), name: z.string(), answer: z.enum(RSVP_ANSWERS) })),
  myAnswer: z.enum(RSVP_ANSWERS).nullable(),
});
export type StudySession = z.infer<typeof studySessionSchema>;

export const studySessionListSchema = z.object({ sessions: z.array(studySessionSchema) });
export type StudySessionList = z.infer<typeof studySessionListSchema>;

export const studySessionListQuerySchema = z.object({
  kind: z.enum(['chat', 'group']).optional(),
  id: z.string().min(1).max(300).optional(),
});

/**
 * The group's one timer, kept by the server: `elapsedMs` of focus/break cycling banked at `pausedOffset`, plus the
 * time since `runningSince` while it runs. Any tab (a late joiner, a reload, another instance) computes the same.
 */
export const timerStateSchema = z.object({
  runningSince: z.string().nullable(),
  elapsedMs: z.number(),
  focusMinutes: z.number(),
  breakMinutes: z.number(),
});
export type TimerState = z.infer<typeof timerStateSchema>;

export const roomStateSchema = z.object({
  sessionId: z.string(),
  status: z.enum(STUDY_SESSION_STATUSES),
  timer: timerStateSchema,
  /** When the server made this state (clients correct their clock by it). */
  serverNow: z.string(),
  present: z.array(z.object({ userId: z.string(), name: z.string(), goal: z.string(), done: z.boolean() })),
});
export type RoomState = z.infer<typeof roomStateSchema>;

export const presenceSchema = z.object({
  goal: z.string().trim().max(STUDY_SESSION_LIMITS.goalMax, MSG.studySessions.goalTooLong).optional(),
  done: z.boolean().optional(),
});
export type PresenceInput = z.infer<typeof presenceSchema>;

export const TIMER_ACTIONS = ['start', 'pause'] as const;
export const timerActionSchema = z.object({ action: z.enum(TIMER_ACTIONS) });

/** The timer's elapsed time at `now` (ms). */
export function timerElapsed(timer: Pick<TimerState, 'runningSince' | 'elapsedMs'>, now: number): number {
  return timer.elapsedMs + (timer.runningSince ? Math.max(0, now - Date.parse(timer.runningSince)) : 0);
}

export interface TimerPhase {
  phase: 'focus' | 'break';
  /** 1 for the first focus block and the break after it. */
  round: number;
  remainingMs: number;
}

/** Where the focus/break cycle stands after `elapsedMs`. */
export function timerPhase(elapsedMs: number, focusMinutes: number, breakMinutes: number): TimerPhase {
  const focus = focusMinutes * 60_000;
  const cycle = focus + breakMinutes * 60_000;
  const at = Math.max(0, elapsedMs);
  const round = Math.floor(at / cycle) + 1;
  const within = at % cycle;
  return within < focus
    ? { phase: 'focus', round, remainingMs: focus - within }
    : { phase: 'break', round, remainingMs: cycle - within };
}

/** `mm:ss` of a remaining time (rounded up to the second, as a countdown shows it). */
export function clockText(ms: number): string {
  const s = Math.ceil(Math.max(0, ms) / 1000);
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** The form planning a session in a conversation, pre-filled with a start (ISO) and a length (a proposed slot). */
export const newStudySessionPath = (
  conversation: { kind: 'chat' | 'group'; id: string },
  start?: string,
  minutes?: number,
) =>
  `/study-sessions/new?${new URLSearchParams({
    kind: conversation.kind,
    id: conversation.id,
    ...(start ? { start } : {}),
    ...(minutes ? { minutes: String(minutes) } : {}),
  }).toString()}`;

/** The path of a session's page (its card in a conversation links here). */
export const studySessionPath = (id: string) => `/study-sessions/${id}`;
/** Finds the session a conversation's message links to (the card); null for any other text. */
export function linkedStudySession(content: string): string | null {
  const m = /\/study-sessions\/([0-9a-f-]{36})\s*$/.exec(content);
  return m ? m[1]! : null;
}

/**
 * A session's time as the server writes it into a conversation or a notice: in the planner's zone, which it names
 * ("Tue, Nov 3, 14:00–16:00 (America/New_York)"); each student's screens show it in their own zone.
 */
export function sessionWhen(start: Date | string, minutes: number, timeZone: string): string {
  const from = new Date(start);
  const to = new Date(from.getTime() + minutes * 60_000);
  const day = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', month: 'short', day: 'numeric' });
  const time = new Intl.DateTimeFormat('en-US', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return `${day.format(from)}, ${time.format(from)}–${time.format(to)} (${timeZone})`;
}
