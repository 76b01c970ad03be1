import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml, readBody, sendHtml, sendJson } from './http.ts';
import type { EmulatorState } from './state.ts';

const random = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;

interface PendingCode {
  clientId: string;
  redirectUri: string;
  scope: string;
  offline: boolean;
  consent: boolean;
  expiresAt: number;
}

/**
 * Google's OAuth 2.0 web-server flow: `GET /o/oauth2/v2/auth` consents at once (the one emulated account
 * always agrees) and redirects back with a code; `POST /token` trades codes and refresh tokens for access tokens;
 * `POST /revoke` revokes a token and, like Google, every other token of its grant.
 */
export class OAuthEndpoints {
  private codes = new Map<string, PendingCode>();
  /**
   * The account's grant to each client that has offline access (then no new refresh token without consent);
   * gone once revoked, so the next authorization starts a new grant.
   */
  private grants = new Map<string, string>();

  constructor(private state: EmulatorState) {}

  authorize(res: ServerResponse, url: URL): number {
    const p = url.searchParams;
    const clientId = p.get('client_id') ?? '';
    const redirectUri = p.get('redirect_uri') ?? '';
    const scope = p.get('scope') ?? '';
    const fail = (message: string) =>
      sendHtml(
        res,
        400,
        `<!doctype html><title>Error 400</title><h1>Error 400: invalid_request</h1><p>${escapeHtml(message)}</p>`,
      );
    if (clientId !== this.state.clientId) return fail('The OAuth client was not found.');
    if (!/^https?:\/\//.test(redirectUri)) return fail('Missing or invalid redirect_uri.');
    if (p.get('response_type') !== 'code') return fail('response_type must be code.');
    if (!scope.split(' ').some((s) => s.startsWith('https://www.googleapis.com/auth/calendar'))) {
      return fail('The calendar scope is missing.');
    }
    const prompt = p.get('prompt');
    const accessType = p.get('access_type');
    this.state.authorizations.push({
      at: new Date().toISOString(),
      clientId,
      redirectUri,
      scope,
      prompt,
      accessType,
    });
    const code = random('4/emu-code-');
    this.codes.set(code, {
      clientId,
      redirectUri,
      scope,
      offline: accessType === 'offline',
      consent: prompt?.split(' ').includes('consent') ?? false,
      expiresAt: Date.now() + 10 * 60_000,
    });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    const stateParam = p.get('state');
    if (stateParam !== null) back.searchParams.set('state', stateParam);
    back.searchParams.set('scope', scope);
    res.writeHead(302, { Location: back.toString() });
    res.end();
    return 302;
  }

  async token(req: IncomingMessage, res: ServerResponse): Promise<number> {
    const form = new URLSearchParams(await readBody(req));
    const bad = (status: number, error: string, description: string) =>
      sendJson(res, status, { error, error_description: description });
    if (form.get('client_id') !== this.state.clientId || form.get('client_secret') !== this.state.clientSecret) {
      return bad(401, 'invalid_client', 'The OAuth client was not found.');
    }
    const grant = form.get('grant_type');
    if (grant === 'authorization_code') {
      const code = form.get('code') ?? '';
      const pending = this.codes.get(code);
      this.codes.delete(code);
      if (!pending || pending.expiresAt < Date.now()) return bad(400, 'invalid_grant', 'Malformed auth code.');
      if (form.get('redirect_uri') !== pending.redirectUri) return bad(400, 'redirect_uri_mismatch', 'Bad Request');
      // Like Google: a refresh token on the first offline grant, and again only when consent was asked for.
      const known = this.grants.get(pending.clientId);
      const withRefresh = pending.offline && (pending.consent || !known);
      const grantId = known ?? random('grant-');
      if (pending.offline) this.grants.set(pending.clientId, grantId);
      return sendJson(res, 200, this.issue(pending.scope, grantId, withRefresh));
    }
    if (grant === 'refresh_token') {
      const refresh = this.state.tokens.get(form.get('refresh_token') ?? '');
      if (!refresh || refresh.kind !== 'refresh')
        return bad(400, 'invalid_grant', 'Token has been expired or revoked.');
      return sendJson(res, 200, this.issue(refresh.scope, refresh.grant, false));
    }
    return bad(400, 'unsupported_grant_type', 'Invalid grant_type.');
  }

  /**
   * Google's revoke endpoint: the token in the query (`?token=`) or the form body. An access or refresh token
   * revokes its whole grant; an unknown, already revoked token answers 400 invalid_token.
   */
  async revoke(req: IncomingMessage, res: ServerResponse, url: URL): Promise<number> {
    const form = new URLSearchParams(await readBody(req));
    const fault = this.state.revokeFault;
    if (fault) {
      if (fault.times !== undefined && --fault.times <= 0) this.state.revokeFault = null;
      return sendJson(res, fault.status, { error: 'server_error', error_description: 'Backend Error' });
    }
    const token = url.searchParams.get('token') ?? form.get('token') ?? '';
    const issued = this.state.tokens.get(token);
    if (!issued) return sendJson(res, 400, { error: 'invalid_token', error_description: 'Token expired or revoked' });
    for (const [t, info] of this.state.tokens) if (info.grant === issued.grant) this.state.tokens.delete(t);
    for (const [client, grant] of this.grants) if (grant === issued.grant) this.grants.delete(client);
    this.state.revocations.push({ at: new Date().toISOString(), token, kind: issued.kind });
    return sendJson(res, 200, {});
  }

  private issue(scope: string, grant: string, withRefresh: boolean) {
    const accessToken = random('ya29.emu-');
    const expiresIn = this.state.expiresIn;
    this.state.tokens.set(accessToken, { kind: 'access', scope, grant, expiresAt: Date.now() + expiresIn * 1000 });
    const body: Record<string, unknown> = {
      access_token: accessToken,
      expires_in: expiresIn,
      scope,
      token_type: 'Bearer',
    };
    if (withRefresh) {
      const refreshToken = random('1//emu-refresh-');
      this.state.tokens.set(refreshToken, { kind: 'refresh', scope, grant });
      body.refresh_token = refreshToken;
    }
    return body;
  }
}
