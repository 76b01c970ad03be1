import { and, asc, eq, gte, inArray, ne, or, sql } from 'drizzle-orm';
import type { RsvpAnswer } from '@studybuddy/shared/study-sessions';
import type { ConversationRef } from '@studybuddy/shared/chat';
import type { Db } from '../../db/connect.ts';
import { studySessionPresence, studySessionRsvps, studySessions } from '../../db/schema/study-sessions.ts';

export type SessionRow = typeof studySessions.$inferSelect;
export type NewSession = typeof studySessions.$inferInsert;
export type RsvpRow = typeof studySessionRsvps.$inferSelect;
export type PresenceRow = typeof studySessionPresence.$inferSelect;

const ofConversation = (ref: ConversationRef) =>
  and(eq(studySessions.conversationKind, ref.kind), eq(studySessions.conversationId, ref.id));

export async function insertSession(db: Db, row: NewSession): Promise<SessionRow> {
  return (await db.insert(studySessions).values(row).returning())[0]!;
}

export async function findSession(db: Db, id: string): Promise<SessionRow | undefined> {
  return (await db.select().from(studySessions).where(eq(studySessions.id, id)))[0];
}

/** The row locked for a change (the caller's transaction). */
export async function lockSession(db: Db, id: string): Promise<SessionRow | undefined> {
  return (await db.select().from(studySessions).where(eq(studySessions.id, id)).for('update'))[0];
}

export async function updateSession(db: Db, id: string, changes: Partial<NewSession>): Promise<SessionRow> {
  return (
    await db
      .update(studySessions)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(studySessions.id, id))
      .returning()
  )[0]!;
}

export async function countUpcoming(db: Db, ref: ConversationRef, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(studySessions)
    .where(and(ofConversation(ref), eq(studySessions.status, 'scheduled'), gte(studySessions.startsAt, now)));
  return row?.n ?? 0;
}

/** A conversation's sessions not over before `from` (cancelled ones too), earliest first. */
export async function conversationSessions(db: Db, ref: ConversationRef, from: Date, limit: number) {
  return db
    .select()
    .from(studySessions)
    .where(
      and(
        ofConversation(ref),
        gte(sql`${studySessions.startsAt} + ${studySessions.minutes} * interval '1 minute'`, from),
      ),
    )
    .orderBy(asc(studySessions.startsAt))
    .limit(limit);
}

/** Sessions of these conversations not over before `from`, earliest first (a student's calendar). */
export async function sessionsOfConversations(db: Db, refs: ConversationRef[], from: Date, limit: number) {
  if (!refs.length) return [];
  return db
    .select()
    .from(studySessions)
    .where(
      and(
        or(...refs.map(ofConversation)),
        gte(sql`${studySessions.startsAt} + ${studySessions.minutes} * interval '1 minute'`, from),
      ),
    )
    .orderBy(asc(studySessions.startsAt))
    .limit(limit);
}

/** Sessions the user answered Going or Maybe to, not over before `from` (their calendar feed). */
export async function attendedSessions(db: Db, userId: string, from: Date, limit: number) {
  return db
    .select({ session: studySessions })
    .from(studySessionRsvps)
    .innerJoin(studySessions, eq(studySessions.id, studySessionRsvps.sessionId))
    .where(
      and(
        eq(studySessionRsvps.userId, userId),
        ne(studySessionRsvps.answer, 'cant'),
        gte(sql`${studySessions.startsAt} + ${studySessions.minutes} * interval '1 minute'`, from),
      ),
    )
    .orderBy(asc(studySessions.startsAt))
    .limit(limit);
}

export async function rsvpsOf(db: Db, sessionIds: string[]): Promise<RsvpRow[]> {
  if (!sessionIds.length) return [];
  return db
    .select()
    .from(studySessionRsvps)
    .where(inArray(studySessionRsvps.sessionId, sessionIds))
    .orderBy(asc(studySessionRsvps.answeredAt));
}

export async function saveRsvp(db: Db, sessionId: string, userId: string, answer: RsvpAnswer): Promise<void> {
  await db
    .insert(studySessionRsvps)
    .values({ sessionId, userId, answer })
    .onConflictDoUpdate({
      target: [studySessionRsvps.sessionId, studySessionRsvps.userId],
      set: { answer, answeredAt: new Date() },
    });
}

/** Who answered Going or Maybe (the attendees a change or a reminder is for). */
export async function attendeeIds(db: Db, sessionId: string): Promise<string[]> {
  const rows = await db
    .select({ userId: studySessionRsvps.userId })
    .from(studySessionRsvps)
    .where(and(eq(studySessionRsvps.sessionId, sessionId), ne(studySessionRsvps.answer, 'cant')));
  return rows.map((r) => r.userId);
}

/** Records that the user is in the room now, with their goal and whether it is done when given. */
export async function touchPresence(
  db: Db,
  sessionId: string,
  userId: string,
  now: Date,
  changes: { goal?: string; done?: boolean },
): Promise<void> {
  await db
    .insert(studySessionPresence)
    .values({ sessionId, userId, seenAt: now, left: false, goal: changes.goal ?? '', done: changes.done ?? false })
    .onConflictDoUpdate({
      target: [studySessionPresence.sessionId, studySessionPresence.userId],
      set: { seenAt: now, left: false, ...changes },
    });
}

export async function leavePresence(db: Db, sessionId: string, userId: string): Promise<void> {
  await db
    .update(studySessionPresence)
    .set({ left: true })
    .where(and(eq(studySessionPresence.sessionId, sessionId), eq(studySessionPresence.userId, userId)));
}

/** Everyone who was in the room, in the order they first came (the recap). */
export async function presenceOf(db: Db, sessionId: string): Promise<PresenceRow[]> {
  return db
    .select()
    .from(studySessionPresence)
    .where(eq(studySessionPresence.sessionId, sessionId))
    .orderBy(asc(studySessionPresence.seenAt));
}
