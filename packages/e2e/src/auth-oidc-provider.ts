// A real OpenID Connect provider (oidc-provider, with its development login form) for the social sign-in journey.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type ProviderContext } from 'oidc-provider';

export interface ProviderAccount {
  email: string;
  emailVerified: boolean;
}

export interface OidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The app's address is known only once it runs: the provider is made then, with the app's callback. */
  setRedirectUri(redirectUri: string): void;
  close(): Promise<void>;
}

export async function startOidcProvider(accounts: Record<string, ProviderAccount>): Promise<OidcProvider> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = createServer((req, res) => {
    if (handler) return handler(req, res);
    res.statusCode = 503;
    res.end('provider not configured yet');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'studybuddy-e2e';
  const clientSecret = 'studybuddy-e2e-secret-0123456789';

  return {
    issuer,
    clientId,
    clientSecret,
    setRedirectUri(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_post',
          },
        ],
        claims: { openid: ['sub'], email: ['email', 'email_verified'] },
        pkce: { required: () => true },
        cookies: { keys: ['e2e-cookie-key'] },
        ttl: { AccessToken: 600, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
        features: { devInteractions: { enabled: true } },
        async findAccount(_ctx: unknown, id: string) {
          const account = accounts[id];
          if (!account) return undefined;
          return {
            accountId: id,
            claims: async () => ({ sub: id, email: account.email, email_verified: account.emailVerified }),
          };
        },
        // Consent is granted at once; the person only sees the provider's login form.
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
      handler = provider.callback();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
