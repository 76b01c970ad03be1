import * as client from 'openid-client';
import type { OidcConfig } from '../../config.ts';

/** What we keep between the redirect to the provider and its answer (sealed in a cookie). */
export interface OidcChecks {
  state: string;
  nonce: string;
  verifier: string;
}

/** What the provider says about the person, from the ID token (and the userinfo endpoint when needed). */
export interface OidcIdentity {
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
}

export const OIDC_CALLBACK_PATH = '/api/auth/oidc/callback';

/** OpenID Connect authorization-code flow with PKCE (S256), state and nonce, through openid-client. */
export function createOidcClient(oidc: OidcConfig, publicUrl: string) {
  const redirectUri = new URL(OIDC_CALLBACK_PATH, publicUrl).toString();
  let discovered: Promise<client.Configuration> | undefined;

  /** Discovery runs once, on first use (a failure is retried on the next sign-in). */
  function configuration(): Promise<client.Configuration> {
    discovered ??= client
      .discovery(
        new URL(oidc.issuer),
        oidc.clientId,
        oidc.clientSecret,
        undefined,
        // Plain http is only for a provider on the local machine (tests, development).
        new URL(oidc.issuer).protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : undefined,
      )
      .catch((err: unknown) => {
        discovered = undefined;
        throw err;
      });
    return discovered;
  }

  return {
    async start(): Promise<{ url: string; checks: OidcChecks }> {
      const config = await configuration();
      const checks: OidcChecks = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        verifier: client.randomPKCECodeVerifier(),
      };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        response_type: 'code',
        state: checks.state,
        nonce: checks.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(checks.verifier),
        code_challenge_method: 'S256',
      });
      return { url: url.href, checks };
    },

    /** Validates the provider's answer (state, PKCE, nonce, issuer, signature) and reads the person's e-mail. */
    async finish(query: string, checks: OidcChecks): Promise<OidcIdentity> {
      const config = await configuration();
      const current = new URL(redirectUri);
      current.search = query;
      const tokens = await client.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: checks.verifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims()!;
      let claims: Record<string, unknown> = idToken;
      if (typeof idToken.email !== 'string') {
        claims = { ...(await client.fetchUserInfo(config, tokens.access_token, idToken.sub)), sub: idToken.sub };
      }
      const verified = claims.email_verified;
      return {
        subject: idToken.sub,
        email: typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : undefined,
        emailVerified: verified === true || verified === 'true',
      };
    },
  };
}

export type OidcClient = ReturnType<typeof createOidcClient>;
