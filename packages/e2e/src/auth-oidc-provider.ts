// The server tests' OpenID Connect provider (oidc-provider, with its development login form) for the social sign-in
// journey, made once the app's callback address is known.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testProvider, type TestAccount } from '../../server/src/features/auth/oidc-test-provider.ts';

export type ProviderAccount = TestAccount;

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
      const provider = testProvider(issuer, { clientId, clientSecret, redirectUri, accounts });
      handler = provider.callback();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
