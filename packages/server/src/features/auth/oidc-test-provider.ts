// Test support: a real OpenID Connect provider (oidc-provider) on a local port, and a driver for its login form.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type ProviderContext } from 'oidc-provider';

export interface TestAccount {
  email: string;
  emailVerified: boolean;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Plays the person at the provider: from the authorization URL to the callback URL with code and state. */
  authorize(authorizationUrl: string, login: string): Promise<URL>;
  close(): Promise<void>;
}

/**
 * The provider itself (also the e2e journey's): one first-party client, PKCE, consent granted at once, so only the
 * development login form is shown; email claims from the userinfo endpoint unless `emailInIdToken`.
 */
export function testProvider(
  issuer: string,
  opts: {
    clientId: string;
    clientSecret: string;
    redirectUri: string;
    accounts: Record<string, TestAccount>;
    emailInIdToken?: boolean;
  },
): Provider {
  return new Provider(issuer, {
    clients: [
      {
        client_id: opts.clientId,
        client_secret: opts.clientSecret,
        redirect_uris: [opts.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    conformIdTokenClaims: !opts.emailInIdToken,
    pkce: { required: () => true },
    cookies: { keys: ['test-cookie-key'] },
    ttl: { AccessToken: 600, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx: unknown, id: string) {
      const account = opts.accounts[id];
      if (!account) return undefined;
      return {
        accountId: id,
        claims: async () => ({ sub: id, email: account.email, email_verified: account.emailVerified }),
      };
    },
    async loadExistingGrant(ctx: ProviderContext) {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client.clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope('openid email');
      await grant.save();
      return grant;
    },
  });
}

export async function startOidcProvider(opts: {
  redirectUri: string;
  accounts: Record<string, TestAccount>;
  /** Put email claims in the ID token too (like Google); by default only the userinfo endpoint has them. */
  emailInIdToken?: boolean;
}): Promise<TestOidcProvider> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'studybuddy-test';
  const clientSecret = 'studybuddy-test-secret-0123456789';
  const provider = testProvider(issuer, { clientId, clientSecret, ...opts });
  server.on('request', provider.callback());

  return {
    issuer,
    clientId,
    clientSecret,
    async authorize(authorizationUrl, login) {
      const jar = new Map<string, string>();
      const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      let url = new URL(authorizationUrl);
      let body: URLSearchParams | undefined;
      for (let hop = 0; hop < 10; hop++) {
        const res = await fetch(url, {
          method: body ? 'POST' : 'GET',
          body,
          headers: { cookie: cookie() },
          redirect: 'manual',
        });
        for (const c of res.headers.getSetCookie()) {
          const [pair] = c.split(';');
          const eq = pair!.indexOf('=');
          jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
        }
        const location = res.headers.get('location');
        if (!location) throw new Error(`provider answered ${res.status} without a redirect: ${await res.text()}`);
        url = new URL(location, url);
        if (url.href.startsWith(opts.redirectUri)) return url;
        // The devInteractions login form: any password, the login names the account.
        body = url.pathname.startsWith('/interaction/')
          ? new URLSearchParams({ prompt: 'login', login, password: 'any' })
          : undefined;
      }
      throw new Error('too many redirects at the provider');
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
