import { randomUUID } from 'node:crypto';
import type { ConversationRef } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import {
  STUDY_SESSION_LIMITS,
  zonedTimeToUtc,
  type RsvpAnswer,
  type StudySession,
  type StudySessionValues,
} from '@studybuddy/shared/study-sessions';
import { withTransaction } from '../../db/transaction.ts';
import type { AppContext } from '../../platform/context.ts';
import type { JobQueue } from '../../platform/jobs/job-queue.ts';
import { AppError, badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { createQuota, DAY_MS } from '../../platform/quota.ts';
import type { CalendarEntry } from '../../platform/registry.ts';
import { mayReadConversation } from '../chat/messages.service.ts';
import { profiles } from '../profile/profiles.service.ts';
import {
  announce,
  reminderScheduler,
  sendReminder,
  sessionUrl,
  type Announcement,
  type ReminderScheduler,
} from './session-notices.ts';
import * as repo from './study-sessions.repository.ts';

/**
 * Study sessions (issue 27 point 3): planned in a conversation the planner is in, for a wall-clock time in their
 * zone (stored as the UTC instant and the zone), answered Going / Maybe / Can't by its members. Only the planner
 * changes or cancels it; each change goes up a SEQUENCE and tells the attendees.
 */

const perDay = { what: MSG.studySessions.perDay, limit: STUDY_SESSION_LIMITS.createdPerDay, windowMs: DAY_MS };
const endOf = (row: repo.SessionRow) => new Date(row.startsAt.getTime() + row.minutes * 60_000);
const refOf = (row: repo.SessionRow): ConversationRef => ({ kind: row.conversationKind, id: row.conversationId });

/** The instant of the planner's wall-clock time; refuses a time that does not exist there or has passed. */
function startOf(values: Pick<StudySessionValues, 'start' | 'timeZone'>, now: Date): Date {
  const start = zonedTimeToUtc(values.start, values.timeZone);
  if (!start) throw badRequest(MSG.studySessions.noSuchTime(values.start.replace('T', ' '), values.timeZone), 'start');
  if (start.getTime() <= now.getTime()) throw badRequest(MSG.studySessions.inPast, 'start');
  return start;
}

/** The session, when the user may read its conversation; 404 alike for no such session and for one they may not. */
async function readable(ctx: AppContext, userId: string, id: string): Promise<repo.SessionRow> {
  const row = await repo.findSession(ctx.db, id);
  if (!row || !(await mayReadConversation(ctx, userId, refOf(row)))) throw notFound(MSG.studySessions.notFound);
  return row;
}

/** For the planner's changes: the session, still to come, and theirs. */
function checkOwnOpen(row: repo.SessionRow, userId: string): void {
  if (row.createdBy !== userId) throw forbidden(MSG.studySessions.onlyCreator);
  if (row.status === 'cancelled') throw new AppError(409, 'conflict', MSG.studySessions.cancelled);
  if (row.status === 'ended') throw new AppError(409, 'conflict', MSG.studySessions.ended);
}

async function conversationName(ctx: AppContext, viewerId: string, ref: ConversationRef): Promise<string> {
  if (ref.kind === 'group') return (await ctx.registry.conversationKinds.get('group')?.title(ref.id)) ?? '';
  const peer = ref.id.split('_').find((id) => id !== viewerId) ?? '';
  return profiles.name(ctx.db, peer);
}

/** Sessions as a viewer sees them, with everyone's answers. */
export async function toViews(ctx: AppContext, viewerId: string, rows: repo.SessionRow[]): Promise<StudySession[]> {
  const rsvps = await repo.rsvpsOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  const people = [
    ...new Set([...rsvps.map((r) => r.userId), ...rows.flatMap((r) => (r.createdBy ? [r.createdBy] : []))]),
  ];
  const cards = await profiles.cards(ctx.db, people);
  const nameOf = (id: string | null) => (id ? (cards.get(id)?.name ?? '') : '') || MSG.chat.anonymous;
  const names = new Map<string, string>();
  for (const r of rows) {
    const key = `${r.conversationKind}:${r.conversationId}`;
    if (!names.has(key)) names.set(key, await conversationName(ctx, viewerId, refOf(r)));
  }
  return rows.map((r) => {
    const answers = rsvps.filter((a) => a.sessionId === r.id);
    return {
      id: r.id,
      conversation: refOf(r),
      conversationName: names.get(`${r.conversationKind}:${r.conversationId}`) ?? '',
      title: r.title,
      course: r.course,
      start: r.startsAt.toISOString(),
      end: endOf(r).toISOString(),
      minutes: r.minutes,
      timeZone: r.timeZone,
      online: r.online,
      place: r.place,
      reminderMinutes: r.reminderMinutes,
      focusMinutes: r.focusMinutes,
      breakMinutes: r.breakMinutes,
      status: r.status,
      sequence: r.sequence,
      createdBy: { id: r.createdBy, name: nameOf(r.createdBy) },
      rsvps: answers.map((a) => ({ userId: a.userId, name: nameOf(a.userId), answer: a.answer })),
      myAnswer: answers.find((a) => a.userId === viewerId)?.answer ?? null,
    };
  });
}

const viewOf = async (ctx: AppContext, viewerId: string, row: repo.SessionRow) =>
  (await toViews(ctx, viewerId, [row]))[0]!;

const fieldsOf = (values: StudySessionValues, start: Date) => ({
  title: values.title,
  course: values.course,
  startsAt: start,
  minutes: values.minutes,
  timeZone: values.timeZone,
  online: values.online,
  place: values.online ? '' : values.place,
  reminderMinutes: values.reminderMinutes,
  focusMinutes: values.focusMinutes,
  breakMinutes: values.breakMinutes,
});

export async function createSession(
  ctx: AppContext,
  reminders: ReminderScheduler,
  userId: string,
  input: StudySessionValues & { conversation: ConversationRef },
  now = new Date(),
): Promise<StudySession> {
  const ref = input.conversation;
  if (!(await mayReadConversation(ctx, userId, ref))) throw forbidden(MSG.studySessions.notInConversation);
  const start = startOf(input, now);
  if ((await repo.countUpcoming(ctx.db, ref, now)) >= STUDY_SESSION_LIMITS.upcomingPerConversation) {
    throw new AppError(409, 'conflict', MSG.studySessions.tooManyUpcoming);
  }
  const quota = createQuota(ctx.db, () => now);
  await quota.consume(`study-sessions:${userId}`, perDay);
  let row: repo.SessionRow;
  try {
    row = await withTransaction(ctx.db, async (tx) => {
      const created = await repo.insertSession(tx, {
        id: randomUUID(),
        conversationKind: ref.kind,
        conversationId: ref.id,
        createdBy: userId,
        ...fieldsOf(input, start),
      });
      await repo.saveRsvp(tx, created.id, userId, 'going');
      return created;
    });
  } catch (err) {
    await quota.refund(`study-sessions:${userId}`);
    throw err;
  }
  await announce(ctx, reminders, row, { kind: 'created', actorId: userId });
  return viewOf(ctx, userId, row);
}

export async function updateSession(
  ctx: AppContext,
  reminders: ReminderScheduler,
  userId: string,
  id: string,
  values: StudySessionValues,
  now = new Date(),
): Promise<StudySession> {
  return changeOwnSession(ctx, reminders, userId, id, 'changed', () => fieldsOf(values, startOf(values, now)));
}

export async function cancelSession(
  ctx: AppContext,
  reminders: ReminderScheduler,
  userId: string,
  id: string,
): Promise<StudySession> {
  return changeOwnSession(ctx, reminders, userId, id, 'cancelled', () => ({
    status: 'cancelled',
    timerRunningSince: null,
  }));
}

/**
 * Changes the planner's own open session under its lock (its sequence counts the change, for calendars), then
 * tells its members and schedules its reminders again.
 */
async function changeOwnSession(
  ctx: AppContext,
  reminders: ReminderScheduler,
  userId: string,
  id: string,
  kind: 'changed' | 'cancelled',
  changes: () => Partial<repo.NewSession>,
): Promise<StudySession> {
  await readable(ctx, userId, id);
  const row = await withTransaction(ctx.db, async (tx) => {
    const current = await repo.lockSession(tx, id);
    if (!current) throw notFound(MSG.studySessions.notFound);
    checkOwnOpen(current, userId);
    return repo.updateSession(tx, id, { ...changes(), sequence: current.sequence + 1 });
  });
  await announce(ctx, reminders, row, { kind, actorId: userId });
  return viewOf(ctx, userId, row);
}

export async function answer(
  ctx: AppContext,
  reminders: ReminderScheduler,
  userId: string,
  id: string,
  value: RsvpAnswer,
  now = new Date(),
): Promise<StudySession> {
  const row = await readable(ctx, userId, id);
  if (!(await mayReadConversation(ctx, userId, refOf(row)))) throw forbidden(MSG.studySessions.notInConversation);
  if (row.status === 'cancelled') throw new AppError(409, 'conflict', MSG.studySessions.cancelled);
  if (row.status === 'ended' || endOf(row) <= now) throw new AppError(409, 'conflict', MSG.studySessions.ended);
  await repo.saveRsvp(ctx.db, id, userId, value);
  await announce(ctx, reminders, row, { kind: 'answered', actorId: userId });
  return viewOf(ctx, userId, row);
}

export async function getSession(ctx: AppContext, userId: string, id: string): Promise<StudySession> {
  return viewOf(ctx, userId, await readable(ctx, userId, id));
}

/** A conversation's sessions not over yet (cancelled ones too, marked), earliest first. */
export async function listSessions(
  ctx: AppContext,
  userId: string,
  ref: ConversationRef,
  now = new Date(),
): Promise<StudySession[]> {
  if (!(await mayReadConversation(ctx, userId, ref))) throw forbidden(MSG.studySessions.notInConversation);
  return toViews(ctx, userId, await repo.conversationSessions(ctx.db, ref, now, 50));
}

/** The sessions a student answered Going or Maybe to, not over yet, in conversations they still read. */
export async function attendedSessions(ctx: AppContext, userId: string, now: Date): Promise<repo.SessionRow[]> {
  const rows = (await repo.attendedSessions(ctx.db, userId, new Date(now.getTime() - DAY_MS), 200)).map(
    (r) => r.session,
  );
  const allowed = new Map<string, boolean>();
  const kept: repo.SessionRow[] = [];
  for (const row of rows) {
    const key = `${row.conversationKind}:${row.conversationId}`;
    if (!allowed.has(key)) allowed.set(key, await mayReadConversation(ctx, userId, refOf(row)));
    if (allowed.get(key)) kept.push(row);
  }
  return kept;
}

export async function mySessions(ctx: AppContext, userId: string, now = new Date()): Promise<StudySession[]> {
  const rows = (await attendedSessions(ctx, userId, now)).filter((r) => endOf(r) > now);
  return toViews(ctx, userId, rows);
}

/** A session as a calendar event: the same UID through every change, SEQUENCE up with each. */
export function calendarEntry(ctx: AppContext, row: repo.SessionRow): CalendarEntry {
  const url = sessionUrl(ctx, row.id);
  return {
    uid: `study-session-${row.id}@studybuddy`,
    start: row.startsAt,
    end: endOf(row),
    timeZone: row.timeZone,
    summary: row.title,
    description: [row.course, url].filter(Boolean).join('\n'),
    location: row.online ? MSG.studySessions.online : row.place,
    url,
    sequence: row.sequence,
    cancelled: row.status === 'cancelled',
    updatedAt: row.updatedAt,
  };
}

/** The calendar feed's source: the student's sessions (cancelled ones stay a day, so calendar apps drop them). */
export async function calendarEntries(ctx: AppContext, userId: string, now: Date): Promise<CalendarEntry[]> {
  return (await attendedSessions(ctx, userId, now)).map((row) => calendarEntry(ctx, row));
}

export type { Announcement };

/** A session's calendar event by id (the caller checked the student may read it). */
export async function entryOf(ctx: AppContext, id: string): Promise<CalendarEntry> {
  const row = await repo.findSession(ctx.db, id);
  if (!row) throw notFound(MSG.studySessions.notFound);
  return calendarEntry(ctx, row);
}

/**
 * The study sessions service, one per app (built in study-sessions.feature.ts with the feature's job queue, which
 * runs the reminders): planning, answers, the sessions' views and calendar entries.
 */
export function createStudySessionsService(ctx: AppContext, reminderQueue: JobQueue) {
  const reminders = reminderScheduler(reminderQueue);
  return {
    createSession: (userId: string, input: StudySessionValues & { conversation: ConversationRef }) =>
      createSession(ctx, reminders, userId, input),
    updateSession: (userId: string, id: string, values: StudySessionValues) =>
      updateSession(ctx, reminders, userId, id, values),
    cancelSession: (userId: string, id: string) => cancelSession(ctx, reminders, userId, id),
    answer: (userId: string, id: string, value: RsvpAnswer) => answer(ctx, reminders, userId, id, value),
    getSession: (userId: string, id: string) => getSession(ctx, userId, id),
    listSessions: (userId: string, ref: ConversationRef) => listSessions(ctx, userId, ref),
    mySessions: (userId: string) => mySessions(ctx, userId),
    entryOf: (id: string) => entryOf(ctx, id),
    calendarEntries: (userId: string, now: Date) => calendarEntries(ctx, userId, now),
    /** The reminder job's work. */
    sendReminder: (payload: { sessionId: string; sequence: number }) => sendReminder(ctx, payload),
  };
}

export type StudySessionsService = ReturnType<typeof createStudySessionsService>;
