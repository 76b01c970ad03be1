import type { App } from '../app.ts';
import { seedUser, type SeedUser } from '../demo/seed-users.ts';
import { createSession, SESSION_COOKIE } from '../features/auth/session.ts';

export interface TestUser {
  id: string;
  email: string;
  /** Value for a `cookie` header that signs this user in. */
  cookie: string;
}

let counter = 0;

/** A verified user with a complete profile (override anything), signed in. */
export async function createUser(app: App, u: Partial<SeedUser> = {}): Promise<TestUser> {
  const email = u.email ?? `student${Date.now()}${counter++}@g.ucla.edu`;
  const id = await seedUser(app.ctx.db, { ...u, email }, app.ctx.config.universities);
  const { token } = await createSession(app.ctx.db, id);
  return { id, email: email.toLowerCase(), cookie: `${SESSION_COOKIE}=${token}` };
}
