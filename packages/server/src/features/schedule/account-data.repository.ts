import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { scheduleBusy, scheduleImports, scheduleOverrides, scheduleWeeks } from '../../db/schema/schedule.ts';

/** Everything of the student's schedule: week, import, every imported busy time and override. */
export async function scheduleOfStudent(db: Db, userId: string) {
  const [week, imports, busy, overrides] = await Promise.all([
    db.select().from(scheduleWeeks).where(eq(scheduleWeeks.userId, userId)),
    db.select().from(scheduleImports).where(eq(scheduleImports.userId, userId)),
    db.select().from(scheduleBusy).where(eq(scheduleBusy.userId, userId)).orderBy(asc(scheduleBusy.startsAt)),
    db.select().from(scheduleOverrides).where(eq(scheduleOverrides.userId, userId)),
  ]);
  return { week: week[0] ?? null, imported: imports[0] ?? null, busy, overrides };
}
