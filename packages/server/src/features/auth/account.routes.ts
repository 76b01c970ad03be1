import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  loginInputSchema,
  resendInputSchema,
  resetRequestSchema,
  signupInputSchema,
  verifyEmailInputSchema,
} from '@studybuddy/shared/auth';
import { MSG } from '@studybuddy/shared/messages';
import type { AppContext } from '../../platform/context.ts';
import { parse } from '../../platform/errors.ts';
import type { Caller } from './account.service.ts';
import { createAccountService } from './account.service.ts';
import { DEVICE_COOKIE } from './known-device.ts';
import { createLoginGuard } from './login-guard.ts';
import { createRateLimiter } from './rate-limit.ts';
import { parseResetCheck, parseResetConfirm } from './reset-refusals.ts';
import { clearSessionCookie, createSession, deleteSession, SESSION_COOKIE, setSessionCookie } from './session.ts';

/** Sign-up, log-in, verification, resend and password reset (spec §2, §4, §8). */
export function accountRoutes(ctx: AppContext) {
  const limits = { enabled: ctx.config.rateLimits, windowMs: ctx.config.rateLimitWindowMs };
  const accounts = createAccountService(ctx, createRateLimiter(ctx.db, limits), createLoginGuard(ctx.db, limits));
  const secure = ctx.config.publicUrl.startsWith('https:');

  const caller = (request: FastifyRequest, reply: FastifyReply): Caller => ({
    ip: request.ip,
    reply,
    sessionId: request.user?.sessionId,
    deviceCookie: request.cookies[DEVICE_COOKIE],
  });

  /** Spec §4: sign-up and a successful verification leave the browser signed out. */
  async function signOut(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (request.user) await deleteSession(ctx.db, request.user.sessionId);
    if (request.cookies[SESSION_COOKIE] !== undefined) clearSessionCookie(reply);
  }

  return async (app: FastifyInstance) => {
    app.post('/api/auth/signup', async (request, reply) => {
      const input = parse(signupInputSchema, request.body);
      await accounts.signup(input, caller(request, reply));
      await signOut(request, reply);
      return reply.status(201).send({ ok: true });
    });

    app.post('/api/auth/login', async (request, reply) => {
      const input = parse(loginInputSchema, request.body);
      const { result, userId } = await accounts.login(input, caller(request, reply));
      if (userId) {
        if (request.user) await deleteSession(ctx.db, request.user.sessionId);
        const { token, expiresAt } = await createSession(ctx.db, userId);
        setSessionCookie(reply, token, expiresAt, secure);
      }
      return result;
    });

    app.post('/api/auth/resend-verification', async (request, reply) => {
      const { ticket } = parse(resendInputSchema, request.body);
      return accounts.resend(ticket, caller(request, reply));
    });

    app.post('/api/auth/verify-email', async (request, reply) => {
      const { oobCode } = parse(verifyEmailInputSchema, request.body);
      await accounts.verifyEmail(oobCode);
      await signOut(request, reply);
      return { ok: true };
    });

    app.post('/api/auth/password-reset', async (request, reply) => {
      const { email } = parse(resetRequestSchema, request.body);
      await accounts.requestReset(email, caller(request, reply));
      return { message: MSG.reset.sent };
    });

    app.post('/api/auth/password-reset/check', async (request) => {
      const { oobCode } = parseResetCheck(request.body);
      return accounts.checkReset(oobCode);
    });

    app.post('/api/auth/password-reset/confirm', async (request, reply) => {
      const { oobCode, password } = parseResetConfirm(request.body);
      await accounts.confirmReset(oobCode, password, caller(request, reply));
      return { ok: true };
    });
  };
}
