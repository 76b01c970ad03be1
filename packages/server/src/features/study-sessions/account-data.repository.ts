import { eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { studySessionPresence, studySessionRsvps, studySessions } from '../../db/schema/study-sessions.ts';

/** The sessions the student planned, answered or joined the room of, with their own answer and goal. */
export async function sessionsOfStudent(db: Db, userId: string) {
  return db
    .select({
      session: studySessions,
      answer: studySessionRsvps.answer,
      goal: studySessionPresence.goal,
      done: studySessionPresence.done,
    })
    .from(studySessions)
    .leftJoin(
      studySessionRsvps,
      sql`${studySessionRsvps.sessionId} = ${studySessions.id} AND ${studySessionRsvps.userId} = ${userId}`,
    )
    .leftJoin(
      studySessionPresence,
      sql`${studySessionPresence.sessionId} = ${studySessions.id} AND ${studySessionPresence.userId} = ${userId}`,
    )
    .where(
      or(
        eq(studySessions.createdBy, userId),
        sql`${studySessionRsvps.userId} IS NOT NULL`,
        sql`${studySessionPresence.userId} IS NOT NULL`,
      ),
    )
    .orderBy(studySessions.startsAt, studySessions.id);
}
