import { randomUUID } from 'node:crypto';
import type { ConversationRef } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import { sessionWhen, studySessionPath } from '@studybuddy/shared/study-sessions';
import type { AppContext } from '../../platform/context.ts';
import type { JobQueue } from '../../platform/jobs/job-queue.ts';
import { audienceOf } from '../chat/message-changes.service.ts';
import * as repo from './study-sessions.repository.ts';

/**
 * What a session's planning tells others: its card (a message of the planner's with the session's link) in the
 * conversation, `studySession.changed` to every member's tabs, a push notice to the attendees of a change or a
 * cancellation, and the reminder job before it starts.
 */

export const REMINDER_JOB = 'study-session.reminder';

export interface Announcement {
  kind: 'created' | 'changed' | 'cancelled' | 'answered';
  actorId: string;
}

/** Puts the reminder job of a session's version on the feature's job queue. */
export type ReminderScheduler = (row: repo.SessionRow) => Promise<void>;

export const sessionUrl = (ctx: AppContext, id: string) =>
  new URL(studySessionPath(id), ctx.config.publicUrl).toString();
const refOf = (row: repo.SessionRow): ConversationRef => ({ kind: row.conversationKind, id: row.conversationId });
const placeOf = (row: repo.SessionRow) => (row.online ? MSG.studySessions.online : row.place);
const whenOf = (row: repo.SessionRow) => sessionWhen(row.startsAt, row.minutes, row.timeZone);

/** Posts a text with the session's link (the web app shows it as the session's card) as `senderId`. */
export async function postToConversation(
  ctx: AppContext,
  row: repo.SessionRow,
  senderId: string,
  text: string,
): Promise<void> {
  try {
    await ctx.registry.chatMessages.send(senderId, refOf(row), {
      id: randomUUID(),
      type: 'text',
      content: `${text}\n${sessionUrl(ctx, row.id)}`,
    });
  } catch (err) {
    // The session stands without its message (e.g. the planner just left the group); the members still hear of it.
    ctx.log.warn({ err, sessionId: row.id }, 'study sessions: could not post to the conversation');
  }
}

/** Tells every member's open tabs that the session changed (they load it again). */
export async function publishChanged(ctx: AppContext, row: repo.SessionRow): Promise<void> {
  const members = await audienceOf(ctx, refOf(row));
  ctx.realtime.toUsers(members, { type: 'studySession.changed', sessionId: row.id, conversation: refOf(row) });
}

export async function announce(
  ctx: AppContext,
  scheduleReminder: ReminderScheduler,
  row: repo.SessionRow,
  what: Announcement,
): Promise<void> {
  await publishChanged(ctx, row);
  if (what.kind === 'answered') return;
  const text =
    what.kind === 'created'
      ? MSG.studySessions.chatCreated(row.title, whenOf(row), placeOf(row))
      : what.kind === 'changed'
        ? MSG.studySessions.chatChanged(row.title, whenOf(row), placeOf(row))
        : MSG.studySessions.chatCancelled(row.title, whenOf(row));
  await postToConversation(ctx, row, what.actorId, text);
  if (what.kind !== 'created') {
    const attendees = (await repo.attendeeIds(ctx.db, row.id)).filter((id) => id !== what.actorId);
    const title =
      what.kind === 'changed' ? MSG.studySessions.changedTitle(row.title) : MSG.studySessions.cancelledTitle(row.title);
    ctx.registry.push.studySession(
      attendees,
      {
        title,
        body: `${whenOf(row)} · ${placeOf(row)}`,
        url: studySessionPath(row.id),
        tag: `study-session:${row.id}`,
      },
      row.conversationKind === 'group' ? row.conversationId : undefined,
    );
  }
  if (what.kind !== 'cancelled') await scheduleReminder(row);
}

/** The reminder job of this version of the session; an older version's job finds its sequence gone and does nothing. */
export const reminderScheduler =
  (queue: JobQueue): ReminderScheduler =>
  async (row) => {
    const runAt = new Date(Math.max(Date.now(), row.startsAt.getTime() - row.reminderMinutes * 60_000));
    await queue.enqueue(
      REMINDER_JOB,
      { sessionId: row.id, sequence: row.sequence },
      { runAt, dedupeKey: `${REMINDER_JOB}:${row.id}:${row.sequence}`, owner: row.createdBy ?? '' },
    );
  };

/**
 * The reminder: the attendees (Going or Maybe) still in the conversation get it in the app (their tabs) and as a
 * push notice. Nothing for a session cancelled, changed since (another job has its new time) or already over.
 */
export async function sendReminder(
  ctx: AppContext,
  payload: { sessionId: string; sequence: number },
  now = new Date(),
): Promise<string[]> {
  const row = await repo.findSession(ctx.db, payload.sessionId);
  if (!row || row.status !== 'scheduled' || row.sequence !== payload.sequence) return [];
  if (row.startsAt.getTime() + row.minutes * 60_000 <= now.getTime()) return [];
  const members = new Set(await audienceOf(ctx, refOf(row)));
  const to = (await repo.attendeeIds(ctx.db, row.id)).filter((id) => members.has(id));
  const minutes = Math.max(0, Math.round((row.startsAt.getTime() - now.getTime()) / 60_000));
  const title = MSG.studySessions.reminderTitle(row.title);
  const body = MSG.studySessions.reminderBody(minutes, placeOf(row));
  ctx.realtime.toUsers(to, { type: 'studySession.reminder', sessionId: row.id, title, body });
  ctx.registry.push.studySession(
    to,
    { title, body, url: studySessionPath(row.id), tag: `study-session:${row.id}` },
    row.conversationKind === 'group' ? row.conversationId : undefined,
  );
  return to;
}
