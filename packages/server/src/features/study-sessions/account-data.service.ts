import type { AppContext } from '../../platform/context.ts';
import { sessionsOfStudent } from './account-data.repository.ts';

/**
 * "Download my data" (issue 27 point 3 with issue 24): the study sessions the student planned, answered or was in
 * the room of, with their own answer, goal and recap line; nothing of the other attendees.
 */
export async function studySessionsForExport(ctx: AppContext, userId: string) {
  const found = await sessionsOfStudent(ctx.db, userId);
  return found.map(({ session: s, answer, goal, done }) => ({
    title: s.title,
    course: s.course,
    startsAt: s.startsAt.toISOString(),
    minutes: s.minutes,
    timeZone: s.timeZone,
    online: s.online,
    place: s.place,
    status: s.status,
    plannedByYou: s.createdBy === userId,
    yourAnswer: answer ?? null,
    yourGoal: goal ?? null,
    goalDone: done ?? null,
    reminderMinutes: s.reminderMinutes,
  }));
}
