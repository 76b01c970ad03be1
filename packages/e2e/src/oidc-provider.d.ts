// The parts of oidc-provider (a real OpenID Connect provider, started by the tests) that we use; it ships no types.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface GrantInstance {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export interface ProviderContext {
    oidc: {
      provider: Provider;
      client: { clientId: string };
      session: { accountId: string };
    };
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    Grant: new (init: { clientId: string; accountId: string }) => GrantInstance;
  }
}
