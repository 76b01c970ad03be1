import type { ConversationRef } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import { STUDY_SESSION_LIMITS, type PresenceInput, type RoomState } from '@studybuddy/shared/study-sessions';
import { withTransaction } from '../../db/transaction.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, forbidden, notFound } from '../../platform/errors.ts';
import { mayReadConversation } from '../chat/messages.service.ts';
import { audienceOf } from '../chat/message-changes.service.ts';
import { profiles } from '../profile/profiles.service.ts';
import { postToConversation, publishChanged } from './session-notices.ts';
import * as repo from './study-sessions.repository.ts';

/**
 * A session's room (issue 27 point 4): who is there (reported within the last 45 s), each one's goal, and the one
 * focus timer, which only the planner starts and pauses. The server keeps the timer as the instant it last started
 * and the time banked by pauses, so every tab on every instance, a late joiner and a reload compute the same time;
 * each change reaches the members' tabs as `studySession.room` through the bus.
 */

const refOf = (row: repo.SessionRow): ConversationRef => ({ kind: row.conversationKind, id: row.conversationId });

async function member(ctx: AppContext, userId: string, id: string): Promise<repo.SessionRow> {
  const row = await repo.findSession(ctx.db, id);
  if (!row || !(await mayReadConversation(ctx, userId, refOf(row)))) throw notFound(MSG.studySessions.notFound);
  return row;
}

function checkOpen(row: repo.SessionRow): void {
  if (row.status === 'cancelled') throw new AppError(409, 'conflict', MSG.studySessions.cancelled);
  if (row.status === 'ended') throw new AppError(409, 'conflict', MSG.studySessions.ended);
}

export async function roomState(ctx: AppContext, row: repo.SessionRow, now: Date): Promise<RoomState> {
  const since = now.getTime() - STUDY_SESSION_LIMITS.presenceSeconds * 1000;
  const here = (await repo.presenceOf(ctx.db, row.id)).filter((p) => !p.left && p.seenAt.getTime() >= since);
  const cards = await profiles.cards(
    ctx.db,
    here.map((p) => p.userId),
  );
  return {
    sessionId: row.id,
    status: row.status,
    timer: {
      runningSince: row.timerRunningSince?.toISOString() ?? null,
      elapsedMs: row.timerElapsedMs,
      focusMinutes: row.focusMinutes,
      breakMinutes: row.breakMinutes,
    },
    serverNow: now.toISOString(),
    present: here
      .map((p) => ({
        userId: p.userId,
        name: cards.get(p.userId)?.name || MSG.chat.anonymous,
        goal: p.goal,
        done: p.done,
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

async function publishRoom(ctx: AppContext, row: repo.SessionRow, now: Date): Promise<RoomState> {
  const room = await roomState(ctx, row, now);
  ctx.realtime.toUsers(await audienceOf(ctx, refOf(row)), { type: 'studySession.room', room });
  return room;
}

export async function getRoom(ctx: AppContext, userId: string, id: string, now = new Date()): Promise<RoomState> {
  return roomState(ctx, await member(ctx, userId, id), now);
}

/**
 * The student is in the room (the page reports on opening and every 15 s), with their goal when given. The members
 * hear of an arrival or a changed goal; a plain report only answers with the room.
 */
export async function report(
  ctx: AppContext,
  userId: string,
  id: string,
  input: PresenceInput,
  now = new Date(),
): Promise<RoomState> {
  const row = await member(ctx, userId, id);
  checkOpen(row);
  const before = await roomState(ctx, row, now);
  await repo.touchPresence(ctx.db, id, userId, now, input);
  const news = input.goal !== undefined || input.done !== undefined || !before.present.some((p) => p.userId === userId);
  return news ? publishRoom(ctx, row, now) : roomState(ctx, row, now);
}

export async function leave(ctx: AppContext, userId: string, id: string, now = new Date()): Promise<void> {
  const row = await member(ctx, userId, id);
  await repo.leavePresence(ctx.db, id, userId);
  await publishRoom(ctx, row, now);
}

/** Starts or pauses the timer (the planner only); starting a running timer or pausing a paused one changes nothing. */
export async function setTimer(
  ctx: AppContext,
  userId: string,
  id: string,
  action: 'start' | 'pause',
  now = new Date(),
): Promise<RoomState> {
  await member(ctx, userId, id);
  const row = await withTransaction(ctx.db, async (tx) => {
    const current = await repo.lockSession(tx, id);
    if (!current) throw notFound(MSG.studySessions.notFound);
    if (current.createdBy !== userId) throw forbidden(MSG.studySessions.onlyCreatorTimer);
    checkOpen(current);
    const since = current.timerRunningSince;
    if (action === 'start' && !since) return repo.updateSession(tx, id, { timerRunningSince: now });
    if (action === 'pause' && since) {
      const ran = Math.max(0, now.getTime() - since.getTime());
      return repo.updateSession(tx, id, { timerRunningSince: null, timerElapsedMs: current.timerElapsedMs + ran });
    }
    return current;
  });
  return publishRoom(ctx, row, now);
}

/**
 * Ends the session (the planner): the timer stops and one line per student who was in the room — their goal, and
 * whether they marked it done — goes to the conversation as the recap.
 */
export async function endSession(ctx: AppContext, userId: string, id: string, now = new Date()): Promise<RoomState> {
  await member(ctx, userId, id);
  const row = await withTransaction(ctx.db, async (tx) => {
    const current = await repo.lockSession(tx, id);
    if (!current) throw notFound(MSG.studySessions.notFound);
    if (current.createdBy !== userId) throw forbidden(MSG.studySessions.onlyCreator);
    checkOpen(current);
    const since = current.timerRunningSince;
    const ran = since ? Math.max(0, now.getTime() - since.getTime()) : 0;
    return repo.updateSession(tx, id, {
      status: 'ended',
      timerRunningSince: null,
      timerElapsedMs: current.timerElapsedMs + ran,
    });
  });
  const attended = await repo.presenceOf(ctx.db, id);
  const cards = await profiles.cards(
    ctx.db,
    attended.map((p) => p.userId),
  );
  const lines = attended
    .map((p) => ({ name: cards.get(p.userId)?.name || MSG.chat.anonymous, goal: p.goal, done: p.done }))
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((p) => MSG.studySessions.recapLine(p.name, p.goal, p.done));
  await postToConversation(ctx, row, userId, [MSG.studySessions.chatRecap(row.title), ...lines].join('\n'));
  await publishChanged(ctx, row);
  return publishRoom(ctx, row, now);
}
