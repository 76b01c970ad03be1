import type { Db } from '../../db/connect.ts';
import { findUserByEmail, findUsersByEmailFragment, findUsersByIds, type AccountRow } from './accounts.repository.ts';

/** An account as moderation sees it: never its password hash. */
export interface AccountListing {
  id: string;
  email: string;
  disabled: boolean;
  emailVerified: boolean;
  createdAt: Date;
}

const listing = (row: AccountRow): AccountListing => ({
  id: row.id,
  email: row.email,
  disabled: row.disabled,
  emailVerified: row.emailVerified,
  createdAt: row.createdAt,
});

/** Accounts for the admin area and the admin command: by id, by e-mail, and a search by part of the e-mail. */
export const accountDirectory = {
  async byIds(db: Db, ids: string[]): Promise<Map<string, AccountListing>> {
    return new Map((await findUsersByIds(db, [...new Set(ids)])).map((row) => [row.id, listing(row)]));
  },

  async byEmail(db: Db, email: string): Promise<AccountListing | undefined> {
    const row = await findUserByEmail(db, email.trim());
    return row && listing(row);
  },

  async searchEmail(db: Db, fragment: string, limit: number): Promise<AccountListing[]> {
    return (await findUsersByEmailFragment(db, fragment, limit)).map(listing);
  },
};
