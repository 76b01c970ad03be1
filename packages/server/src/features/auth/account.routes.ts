import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  loginInputSchema,
  resendInputSchema,
  resetRequestSchema,
  signupInputSchema,
  verifyEmailInputSchema,
} from '@studybuddy/shared/auth';
import {
  loginResultSchema,
  resendResultSchema,
  resetCheckResultSchema,
  resetRequestedSchema,
} from '@studybuddy/shared/auth-responses';
import { MSG } from '@studybuddy/shared/messages';
import type { AppContext } from '../../platform/context.ts';
import { okSchema } from '../../platform/openapi.ts';
import { routeOptions } from '../../platform/route-options.ts';
import type { Caller } from './account.service.ts';
import type { AccountService } from './account.service.ts';
import { DEVICE_COOKIE } from './known-device.ts';
import { resetCheckBody, resetConfirmBody } from './reset-refusals.ts';
import { clearSessionCookie, createSession, SESSION_COOKIE, setSessionCookie } from './session.ts';
import { endSession } from './sessions.service.ts';

/** Sign-up, log-in, verification, resend and password reset (requirements §2, §4, §8). */
export function accountRoutes(ctx: AppContext, accounts: AccountService) {
  const secure = ctx.config.publicUrl.startsWith('https:');

  const caller = (request: FastifyRequest, reply: FastifyReply): Caller => ({
    ip: request.ip,
    reply,
    sessionId: request.user?.sessionId,
    deviceCookie: request.cookies[DEVICE_COOKIE],
  });

  /** Requirements §4: sign-up and a successful verification leave the browser signed out. */
  async function signOut(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (request.user) await endSession(ctx, request.user);
    if (request.cookies[SESSION_COOKIE] !== undefined) clearSessionCookie(reply);
  }

  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    const route = routeOptions(['accounts']);

    app.post(
      '/api/auth/signup',
      route('Creates an account and sends the verification e-mail (leaves the browser signed out)', {
        body: signupInputSchema,
        response: { 201: okSchema },
      }),
      async (request, reply) => {
        await accounts.signup(request.body, caller(request, reply));
        await signOut(request, reply);
        return reply.status(201).send({ ok: true });
      },
    );

    app.post(
      '/api/auth/login',
      route('Signs in with e-mail and password (sets the session cookie)', {
        body: loginInputSchema,
        response: { 200: loginResultSchema },
      }),
      async (request, reply) => {
        const { result, userId } = await accounts.login(request.body, caller(request, reply));
        if (userId) {
          if (request.user) await endSession(ctx, request.user);
          const { token, expiresAt } = await createSession(ctx.db, userId, request.headers['user-agent']);
          setSessionCookie(reply, token, expiresAt, secure);
        }
        return result;
      },
    );

    app.post(
      '/api/auth/resend-verification',
      route('Sends the verification e-mail again (with the ticket of an unverified log-in)', {
        body: resendInputSchema,
        response: { 200: resendResultSchema },
      }),
      async (request, reply) => accounts.resend(request.body.ticket, caller(request, reply)),
    );

    app.post(
      '/api/auth/verify-email',
      route('Verifies the e-mail address with the code of the e-mail link', {
        body: verifyEmailInputSchema,
        response: { 200: okSchema },
      }),
      async (request, reply) => {
        await accounts.verifyEmail(request.body.oobCode);
        await signOut(request, reply);
        return { ok: true as const };
      },
    );

    app.post(
      '/api/auth/password-reset',
      route('Sends a password reset e-mail (the same answer whether the address is known or not)', {
        body: resetRequestSchema,
        response: { 200: resetRequestedSchema },
      }),
      async (request, reply) => {
        await accounts.requestReset(request.body.email, caller(request, reply));
        return { message: MSG.reset.sent };
      },
    );

    app.post(
      '/api/auth/password-reset/check',
      route('Checks a reset code and answers the account it resets', {
        body: resetCheckBody,
        response: { 200: resetCheckResultSchema },
      }),
      async (request) => accounts.checkReset(request.body.oobCode),
    );

    app.post(
      '/api/auth/password-reset/confirm',
      route('Sets a new password with a reset code', { body: resetConfirmBody, response: { 200: okSchema } }),
      async (request, reply) => {
        const { oobCode, password } = request.body;
        await accounts.confirmReset(oobCode, password, caller(request, reply));
        return { ok: true as const };
      },
    );
  };
}
