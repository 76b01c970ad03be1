import type { SocialError } from '@studybuddy/shared/auth';
import { universityForEmail } from '@studybuddy/shared/universities';
import type { Db } from '../../db/connect.ts';
import type { University } from '../../universities-config.ts';
import {
  deleteUserSessions,
  findIdentity,
  findUserByEmail,
  findUserById,
  insertIdentity,
  insertUser,
  isUniqueViolation,
  updateUser,
} from './accounts.repository.ts';
import type { OidcIdentity } from './oidc-client.ts';
import { withTransaction } from '../../db/transaction.ts';
import { profiles } from '../profile/profiles.service.ts';

class Refused extends Error {}

/**
 * The account for a person the OIDC provider vouches for. Refused (and nothing written) when the provider
 * has not verified the e-mail (requirements §4, §8). Otherwise: the account linked to this provider identity, else
 * the account with this e-mail (now linked and verified), else a new one — with its profile — in one transaction.
 * A new account needs a university of `universities` (the setting) that takes sign-ups; a university removed from
 * it, or marked "signUp": false, keeps its students' accounts but makes no new ones ('invalid_domain').
 */
export async function socialSignIn(
  db: Db,
  provider: string,
  who: OidcIdentity,
  universities: readonly University[],
): Promise<{ userId: string } | { error: SocialError }> {
  const email = who.email;
  if (!email || !who.emailVerified) return { error: 'not_verified' };
  const mayJoin = universityForEmail(universities, email)?.signUp === true;
  const refused = { error: 'invalid_domain' as const };

  const attempt = () =>
    withTransaction(db, async (t) => {
      let userId = await findIdentity(t, provider, who.subject);
      if (!userId) {
        const existing = await findUserByEmail(t, email);
        if (existing) {
          userId = existing.id;
          if (!existing.emailVerified) {
            // Someone made this account without proving the mailbox; its owner now has. Whoever chose that
            // password must not keep a way in (pre-account-takeover defence).
            await updateUser(t, userId, { emailVerified: true, passwordHash: null });
            await deleteUserSessions(t, userId);
          }
        } else {
          if (!mayJoin) return refused;
          userId = await insertUser(t, { email, passwordHash: null, emailVerified: true });
        }
        await insertIdentity(t, provider, who.subject, userId);
      }
      const user = await findUserById(t, userId);
      if (!user || user.disabled) return { error: 'disabled' as const };
      // No profile and no college to give one (a university removed before they signed in): undo the link.
      if (!(await profiles.ensure(t, user.id, user.email, universities))) throw new Refused();
      return { userId: user.id };
    });

  const run = () => attempt().catch((err: unknown) => (err instanceof Refused ? refused : Promise.reject(err)));
  try {
    return await run();
  } catch (err) {
    // Two first sign-ins at once: the loser finds the winner's rows on a second try.
    if (isUniqueViolation(err)) return run();
    throw err;
  }
}
