import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { profiles } from '../../db/schema.ts';
import { rows } from './social.sql.ts';

/** Takes the day's mail slot of this sender → recipient pair; false when a mail went less than a day ago. */
export async function claimMailSlot(db: Db, fromUserId: string, toUserId: string): Promise<boolean> {
  const claimed = await rows<{ ok: number }>(
    db,
    sql`INSERT INTO friend_request_mails (from_user_id, to_user_id) VALUES (${fromUserId}, ${toUserId})
        ON CONFLICT (from_user_id, to_user_id) DO UPDATE SET created_at = now()
        WHERE friend_request_mails.created_at <= now() - interval '1 day'
        RETURNING 1 AS ok`,
  );
  return claimed.length > 0;
}

/** The recipient's address and preference, and the sender's name. */
export async function mailParties(db: Db, fromUserId: string, toUserId: string) {
  const [recipient] = await db
    .select({ email: profiles.email, enabled: profiles.emailNotificationsEnabled })
    .from(profiles)
    .where(eq(profiles.userId, toUserId))
    .limit(1);
  const [sender] = await db
    .select({ name: profiles.name })
    .from(profiles)
    .where(eq(profiles.userId, fromUserId))
    .limit(1);
  return { recipient, senderName: sender?.name };
}

/** One-click unsubscribe: turns emailNotificationsEnabled off. */
export async function disableRequestMails(db: Db, userId: string): Promise<boolean> {
  const done = await db
    .update(profiles)
    .set({ emailNotificationsEnabled: false })
    .where(eq(profiles.userId, userId))
    .returning({ id: profiles.userId });
  return done.length > 0;
}
