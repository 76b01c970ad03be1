import type { AppContext } from '../../platform/context.ts';
import { sessionRoutes } from './session.routes.ts';

/** Accounts: sign-up, log-in, verification, password reset, social sign-in, the session, log-out and account deletion (the owner of `users` and `sessions`; the platform resolves sessions through its store). */
export function authFeature(ctx: AppContext) {
  return sessionRoutes(ctx);
}
