import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuthProviders, SocialError } from '@studybuddy/shared/auth';
import { authProvidersSchema } from '@studybuddy/shared/auth-responses';
import { ROUTES } from '@studybuddy/shared/routes';
import type { AppContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { errorResponses, redirect } from '../../platform/openapi.ts';
import { createOidcClient, OIDC_CALLBACK_PATH, type OidcChecks } from './oidc-client.ts';
import { seal, unseal } from './sealed-value.ts';
import { createSession, setSessionCookie } from './session.ts';
import { endSession } from './sessions.service.ts';
import { socialSignIn } from './social-sign-in.ts';

const STATE_COOKIE = 'sb_oidc';
const STATE_PURPOSE = 'oidc-state';
const STATE_MS = 10 * 60 * 1000;

/** Social sign-in through any OpenID Connect provider (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET). */
export function oidcRoutes(ctx: AppContext) {
  const { oidc, publicUrl, secretKey } = ctx.config;
  const secure = publicUrl.startsWith('https:');
  const oidcClient = oidc && createOidcClient(oidc, publicUrl);
  const cookieOptions = { path: OIDC_CALLBACK_PATH, httpOnly: true, sameSite: 'lax' as const, secure };

  const toLogin = (reply: FastifyReply, error: SocialError) =>
    reply.redirect(`${ROUTES.login}?error=${encodeURIComponent(error)}`, 302);

  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    const tags = ['accounts'];
    const providers = {
      summary: 'Which sign-in providers the login and sign-up pages offer',
      tags,
      response: { 200: authProvidersSchema },
    };
    app.get(
      '/api/auth/providers',
      { schema: providers },
      async (): Promise<AuthProviders> => ({ oidc: oidc ? { name: oidc.name } : null }),
    );

    /** Sends the browser to the provider; state, nonce and the PKCE verifier wait in a sealed, httpOnly cookie. */
    const start = {
      summary: 'Social sign-in: sends the browser to the OpenID Connect provider',
      tags,
      response: { 302: redirect, ...errorResponses },
    };
    app.get('/api/auth/oidc/start', { schema: start }, async (request, reply) => {
      if (!oidcClient) throw notFound();
      let started;
      try {
        started = await oidcClient.start();
      } catch (err) {
        request.log.error({ err }, 'OIDC discovery failed');
        return toLogin(reply, 'failed');
      }
      reply.setCookie(STATE_COOKIE, seal(secretKey, STATE_PURPOSE, started.checks, STATE_MS), {
        ...cookieOptions,
        maxAge: STATE_MS / 1000,
      });
      return reply.redirect(started.url, 302);
    });

    /** The provider's answer: refused with a reason on /login, or a session and on to the app. */
    const callback = {
      summary: "Social sign-in: the provider's answer (code and state in the query); on to the app or /login",
      tags,
      response: { 302: redirect, ...errorResponses },
    };
    app.get(OIDC_CALLBACK_PATH, { schema: callback }, async (request, reply) => {
      if (!oidcClient || !oidc) throw notFound();
      const sealed = request.cookies[STATE_COOKIE];
      reply.clearCookie(STATE_COOKIE, cookieOptions);
      const checks = sealed ? unseal<OidcChecks>(secretKey, STATE_PURPOSE, sealed) : null;
      if (!checks) return toLogin(reply, 'failed');
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      let identity;
      try {
        identity = await oidcClient.finish(query, checks);
      } catch (err) {
        request.log.warn({ err }, 'OIDC sign-in refused');
        return toLogin(reply, 'failed');
      }
      const outcome = await socialSignIn(ctx.db, oidc.issuer, identity, ctx.config.universities);
      if ('error' in outcome) return toLogin(reply, outcome.error);
      if (request.user) await endSession(ctx, request.user);
      const { token, expiresAt } = await createSession(ctx.db, outcome.userId, request.headers['user-agent']);
      setSessionCookie(reply, token, expiresAt, secure);
      return reply.redirect(ROUTES.home, 302);
    });
  };
}
