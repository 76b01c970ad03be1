import type { App } from '../app.ts';
import { seedUser, type SeedUser } from '../demo/seed-users.ts';
import { createSession, SESSION_COOKIE } from '../features/auth/session.ts';
import { hashPassword } from '../platform/passwords.ts';

export interface TestUser {
  id: string;
  email: string;
  /** Value for a `cookie` header that signs this user in. */
  cookie: string;
}

let counter = 0;

// One full-cost scrypt hash per password and worker, shared by the users created with it: a hash costs 100 ms of
// a core (more under load) and the suite creates hundreds of users. Log-ins still verify at the full cost.
const hashes = new Map<string, Promise<string>>();
const hashOf = (password: string) => {
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
    hash.catch(() => hashes.delete(password));
  }
  return hash;
};

/** A verified user with a complete profile (override anything), signed in. */
export async function createUser(app: App, u: Partial<SeedUser> = {}): Promise<TestUser> {
  const email = u.email ?? `student${Date.now()}${counter++}@g.ucla.edu`;
  const passwordHash = u.passwordHash ?? (await hashOf(u.password ?? 'password123'));
  const id = await seedUser(app.ctx.db, { ...u, email, passwordHash }, app.ctx.config.universities);
  const { token } = await createSession(app.ctx.db, id);
  return { id, email: email.toLowerCase(), cookie: `${SESSION_COOKIE}=${token}` };
}
