import { sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { rows } from '../../db/rows.ts';

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
