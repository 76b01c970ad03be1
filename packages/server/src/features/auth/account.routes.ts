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
import { errorResponses, okSchema } from '../../platform/openapi.ts';
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
    const tags = ['accounts'];

    app.post(
      '/api/auth/signup',
      {
        schema: {
          summary: 'Creates an account and sends the verification e-mail (leaves the browser signed out)',
          tags,
          body: signupInputSchema,
          response: { 201: okSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        await accounts.signup(request.body, caller(request, reply));
        await signOut(request, reply);
        return reply.status(201).send({ ok: true });
      },
    );

    app.post(
      '/api/auth/login',
      {
        schema: {
          summary: 'Signs in with e-mail and password (sets the session cookie)',
          tags,
          body: loginInputSchema,
          response: { 200: loginResultSchema, ...errorResponses },
        },
      },
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
      {
        schema: {
          summary: 'Sends the verification e-mail again (with the ticket of an unverified log-in)',
          tags,
          body: resendInputSchema,
          response: { 200: resendResultSchema, ...errorResponses },
        },
      },
      async (request, reply) => accounts.resend(request.body.ticket, caller(request, reply)),
    );

    app.post(
      '/api/auth/verify-email',
      {
        schema: {
          summary: 'Verifies the e-mail address with the code of the e-mail link',
          tags,
          body: verifyEmailInputSchema,
          response: { 200: okSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        await accounts.verifyEmail(request.body.oobCode);
        await signOut(request, reply);
        return { ok: true as const };
      },
    );

    app.post(
      '/api/auth/password-reset',
      {
        schema: {
          summary: 'Sends a password reset e-mail (the same answer whether the address is known or not)',
          tags,
          body: resetRequestSchema,
          response: { 200: resetRequestedSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        await accounts.requestReset(request.body.email, caller(request, reply));
        return { message: MSG.reset.sent };
      },
    );

    app.post(
      '/api/auth/password-reset/check',
      {
        schema: {
          summary: 'Checks a reset code and answers the account it resets',
          tags,
          body: resetCheckBody,
          response: { 200: resetCheckResultSchema, ...errorResponses },
        },
      },
      async (request) => accounts.checkReset(request.body.oobCode),
    );

    app.post(
      '/api/auth/password-reset/confirm',
      {
        schema: {
          summary: 'Sets a new password with a reset code',
          tags,
          body: resetConfirmBody,
          response: { 200: okSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const { oobCode, password } = request.body;
        await accounts.confirmReset(oobCode, password, caller(request, reply));
        return { ok: true as const };
      },
    );
  };
}
