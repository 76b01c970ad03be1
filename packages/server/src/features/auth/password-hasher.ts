import type { AppContext } from '../../platform/context.ts';
import { hashPassword, verifyPassword } from '../../platform/passwords.ts';

/** scrypt hashing as the accounts feature uses it; one per app so a test can count the (costly) calls. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
}

const scryptHasher: PasswordHasher = { hash: hashPassword, verify: verifyPassword };
const replaced = new WeakMap<AppContext, PasswordHasher>();

export const hasherOf = (ctx: AppContext): PasswordHasher => replaced.get(ctx) ?? scryptHasher;

/** Tests wrap the app's hasher (e.g. to count calls); the wrapper gets the real one to delegate to. */
export function wrapHasher(ctx: AppContext, wrap: (inner: PasswordHasher) => PasswordHasher): void {
  replaced.set(ctx, wrap(hasherOf(ctx)));
}
