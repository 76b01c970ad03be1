import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { createAccountSecurityService } from './account-security.service.ts';
import { createAccountService } from './account.service.ts';
import { createLoginGuard } from './login-guard.ts';
import { scryptHasher, type WrapHasher } from './password-hasher.ts';
import { createRateLimiter } from './rate-limit.ts';
import { installSessionSweep } from './session-sweep.ts';
import { sessionRoutes } from './session.routes.ts';

/** Accounts: sign-up, log-in, verification, password reset, social sign-in, the session, log-out and account deletion (the owner of `users` and `sessions`; the platform resolves sessions through its store). */
export function authFeature(ctx: AppContext, options: { wrapHasher?: WrapHasher; now?: () => Date } = {}) {
  const hasher = options.wrapHasher ? options.wrapHasher(scryptHasher) : scryptHasher;
  const limits = { enabled: ctx.config.rateLimits, windowMs: ctx.config.rateLimitWindowMs, now: options.now };
  const accounts = createAccountService(
    ctx,
    createRateLimiter(ctx.db, limits),
    createLoginGuard(ctx.db, limits),
    hasher,
  );
  const security = createAccountSecurityService({ ctx, hasher });
  const routes = sessionRoutes(ctx, accounts, security);
  return async (app: FastifyInstance) => {
    // Expired sessions (and what the features' session clean-ups remove with them) are deleted periodically.
    installSessionSweep(app, ctx);
    await app.register(routes);
  };
}
