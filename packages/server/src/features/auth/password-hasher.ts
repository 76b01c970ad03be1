import { hashPassword, verifyPassword } from '../../platform/passwords.ts';

/** scrypt hashing as the accounts feature uses it; built with the feature, so a test can count the (costly) calls. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
}

export const scryptHasher: PasswordHasher = { hash: hashPassword, verify: verifyPassword };

/** Tests wrap the app's hasher (e.g. to count calls); the wrapper gets the real one to delegate to. */
export type WrapHasher = (inner: PasswordHasher) => PasswordHasher;
