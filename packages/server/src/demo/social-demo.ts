import { inArray } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';
import { users } from '../db/schema.ts';
import { addFriendship, areFriends } from '../features/social/friends.repository.ts';
import { findPending, insertPending } from '../features/social/requests.repository.ts';

export interface SocialDemo {
  /** Pairs of e-mails made friends. */
  friends: [string, string][];
  /** Pending requests, from → to. */
  requests: [string, string][];
}

/** Friendships and pending requests among the demo students of `npm run demo` (see demo/demo-data.ts). */
export const DEMO_SOCIAL: SocialDemo = {
  friends: [
    ['ada@g.ucla.edu', 'chloe@g.ucla.edu'],
    ['ben@g.ucla.edu', 'emma@g.ucla.edu'],
  ],
  requests: [
    ['ben@g.ucla.edu', 'ada@g.ucla.edu'],
    ['dev@g.ucla.edu', 'ada@g.ucla.edu'],
    ['ada@g.ucla.edu', 'emma@g.ucla.edu'],
  ],
};

/** Idempotent: existing friendships and pending requests are kept; unknown e-mails are skipped. */
export async function seedSocialDemo(db: Db, demo: SocialDemo = DEMO_SOCIAL): Promise<void> {
  const emails = [...new Set([...demo.friends, ...demo.requests].flat())];
  const found = await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.email, emails));
  const idOf = new Map(found.map((u) => [u.email, u.id]));
  for (const [a, b] of demo.friends) {
    const [x, y] = [idOf.get(a), idOf.get(b)];
    if (x && y && !(await areFriends(db, x, y))) await addFriendship(db, x, y);
  }
  for (const [from, to] of demo.requests) {
    const [x, y] = [idOf.get(from), idOf.get(to)];
    if (!x || !y || (await areFriends(db, x, y))) continue;
    if (!(await findPending(db, x, y)) && !(await findPending(db, y, x))) await insertPending(db, x, y);
  }
}
