import type { RouteOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MSG } from '@studybuddy/shared/messages';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { API_DOCS_PATH, errorResponses, OPENAPI_JSON_PATH } from './openapi.ts';

/** POST/PUT/PATCH routes that take no JSON body, and why; every other one must declare its body schema. */
const NO_JSON_BODY: Record<string, string> = {
  'POST /api/auth/logout': 'nothing to say',
  'POST /api/social/requests/:id/accept': 'the request is in the path',
  'POST /api/social/requests/:id/decline': 'the request is in the path',
  'POST /api/social/notifications/viewed': 'marks all',
  'POST /api/lms/disconnect': 'nothing to say',
  'POST /api/account/sessions/sign-out-others': 'this browser stays, the others go',
  'POST /api/account/export': "the hour's one download",
  'POST /api/groups/:id/leave': 'the group is in the path',
  'POST /api/documents/:id/process': 'the document is in the path',
  'POST /api/calendar/feed': 'a new secret address',
  'POST /api/uploads/:target': 'multipart',
  'POST /api/upload-document': 'multipart',
  'POST /api/chats/:id/attachments': "the file's bytes are the body",
  'POST /api/groups/:id/attachments': "the file's bytes are the body",
  'POST /api/resumable': 'tus (headers; the bytes come with PATCH)',
  'PATCH /api/resumable/:id': 'tus (application/offset+octet-stream)',
  'POST /api/admin/backup': 'answers an archive',
};

/** The route as the onRoute hook saw it; its schema is read later (plugins may describe it after the hook). */
interface Collected {
  method: string;
  route: RouteOptions;
}

const openapiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{*}');
type Schema = { hide?: boolean; summary?: string; params?: unknown; body?: unknown; response?: object };
const schemaOf = (c: Collected) => (c.route.schema ?? {}) as Schema;

describe('API description at /api/docs', () => {
  let t: TestApp;
  const routes: Collected[] = [];
  let doc: OpenAPIV3_1.Document;

  beforeAll(async () => {
    const onRoute = (route: RouteOptions) => {
      for (const method of [route.method].flat()) routes.push({ method, route });
    };
    t = await createTestApp({}, { onRoute });
    await t.app.ready();
    const res = await t.app.inject({ method: 'GET', url: OPENAPI_JSON_PATH });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(() => t?.close());

  const name = (c: Collected) => `${c.method} ${c.route.url}`;
  /** Fastify adds a HEAD route to every GET; only HEAD routes of their own (tus) are part of the API. */
  const isAutoHead = (c: Collected) =>
    c.method === 'HEAD' && routes.some((o) => o.method === 'GET' && o.route.url === c.route.url);
  const documented = () => routes.filter((c) => !isAutoHead(c) && !schemaOf(c).hide);

  it('lists every route with its method', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(documented().length).toBeGreaterThan(80);
    const missing = documented().filter((c) => {
      const item = doc.paths?.[openapiPath(c.route.url)] as Record<string, unknown> | undefined;
      return !item?.[c.method.toLowerCase()];
    });
    expect(missing.map(name)).toEqual([]);
    // Only the docs' own page and files are left out.
    const hidden = routes.filter((c) => !isAutoHead(c) && schemaOf(c).hide).map((c) => c.route.url);
    expect(hidden.length).toBeGreaterThan(0);
    expect(hidden.filter((url) => !url.startsWith(API_DOCS_PATH))).toEqual([]);
    // The WebSocket and the tus routes are described too.
    expect(doc.paths?.['/api/ws']?.get?.summary).toMatch(/WebSocket/);
    expect(doc.paths?.['/api/resumable/{id}']?.head?.summary).toMatch(/tus/);
    expect(doc.paths?.['/api/resumable/{id}']?.patch?.summary).toMatch(/tus/);
  });

  it('every route has a summary and a success response; routes declare the input they take', () => {
    const problems: string[] = [];
    for (const c of documented()) {
      const schema = schemaOf(c);
      if (!schema.summary) problems.push(`${name(c)}: no summary`);
      const codes = Object.keys(schema.response ?? {});
      if (!codes.some((code) => /^[123]/.test(code))) problems.push(`${name(c)}: no success response schema`);
      if (/:|\*$/.test(c.route.url) && !schema.params) problems.push(`${name(c)}: path parameters without a schema`);
      if (['POST', 'PUT', 'PATCH'].includes(c.method) && !schema.body && !NO_JSON_BODY[name(c)]) {
        problems.push(`${name(c)}: takes a body without a schema`);
      }
    }
    expect(problems).toEqual([]);
    // The list of exceptions names only routes that exist.
    const names = new Set(routes.map(name));
    expect(Object.keys(NO_JSON_BODY).filter((n) => !names.has(n))).toEqual([]);
  });

  it('the document carries the request and response schemas', () => {
    const signup = doc.paths?.['/api/auth/signup']?.post;
    const body = (signup?.requestBody as OpenAPIV3_1.RequestBodyObject).content['application/json']?.schema;
    expect(body).toMatchObject({ type: 'object', properties: { email: {}, password: {} } });
    const feedback = doc.paths?.['/api/feedback']?.post;
    const created = feedback?.responses?.['201'] as OpenAPIV3_1.ResponseObject;
    expect(created.content?.['application/json']?.schema).toMatchObject({
      type: 'object',
      properties: { id: { type: 'string' } },
    });
    const failure = feedback?.responses?.['4XX'] as OpenAPIV3_1.ResponseObject;
    expect(failure.content?.['application/json']?.schema).toMatchObject({
      properties: { error: { properties: { code: {}, message: {}, field: {} } } },
    });
    const messages = doc.paths?.['/api/chats/{id}/messages']?.get;
    expect(messages?.parameters?.map((p) => (p as OpenAPIV3_1.ParameterObject).name).sort()).toEqual(
      expect.arrayContaining(['id', 'before', 'limit']),
    );
  });

  it('describes what non-JSON routes answer', () => {
    const contentOf = (path: string, method: 'get' | 'post', code = '200') =>
      Object.keys((doc.paths?.[path]?.[method]?.responses?.[code] as OpenAPIV3_1.ResponseObject).content ?? {});
    expect(contentOf('/api/calendar/feed/{file}', 'get')).toEqual(['text/calendar']);
    expect(contentOf('/api/calendar/ics', 'post')).toEqual(['text/calendar']);
    expect(contentOf('/api/avatars/{file}', 'get')).toEqual(['image/svg+xml']);
    expect(contentOf('/api/files/{*}', 'get')).toEqual(['application/octet-stream']);
    expect(contentOf('/api/social/unsubscribe', 'get')).toEqual(['text/html']);
    expect(doc.paths?.['/api/calendar/google/authorize']?.get?.responses?.['302']).toBeTruthy();
  });

  it('serves Swagger UI at /api/docs with no inline script, under the app’s Content-Security-Policy', async () => {
    const page = await t.app.inject({ method: 'GET', url: API_DOCS_PATH });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('swagger-ui-bundle.js');
    const scripts = [...page.body.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!);
    expect(scripts.length).toBe(3);
    expect(scripts.filter((attributes) => !attributes.includes('src='))).toEqual([]);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self';");
    expect(csp).toMatch(/style-src 'self' 'sha256-[^']+';/);
    expect(csp).not.toContain('unsafe');
    const init = await t.app.inject({ method: 'GET', url: `${API_DOCS_PATH}/static/swagger-initializer.js` });
    expect(init.statusCode).toBe(200);
    expect(init.body).toContain("resolveUrl('./json')");
    expect((await t.app.inject({ method: 'GET', url: `${API_DOCS_PATH}/json` })).json()).toEqual(doc);
  });

  it('validation failures keep the error body of parse(), and a signed-out caller hears 401 first', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/api/feedback', payload: { feedback: 'Nice', rating: 9 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      error: { code: 'validation_failed', message: MSG.feedback.ratingRequired, field: 'rating' },
    });
    const empty = await t.app.inject({ method: 'POST', url: '/api/feedback' });
    expect(empty.json()).toEqual({
      error: { code: 'validation_failed', message: MSG.feedback.textRequired, field: 'feedback' },
    });
    const signedOut = await t.app.inject({ method: 'GET', url: '/api/groups?kind=nonsense' });
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json()).toEqual({ error: { code: 'unauthenticated', message: MSG.api.unauthenticated } });
  });
});

describe('answers are serialised by their schemas', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const app = t.app.withTypeProvider<ZodTypeProvider>();
    const answer = z.object({ id: z.string(), name: z.string() });
    app.get(
      '/api/test/serialised',
      { schema: { summary: 'test', response: { 200: answer, ...errorResponses } } },
      // A service that hands back more than the contract: the extra field must not leave the server.
      async () => ({ id: 'u1', name: 'Ada', passwordHash: 'scrypt$secret' }) as z.infer<typeof answer>,
    );
    app.get(
      '/api/test/broken',
      { schema: { summary: 'test', response: { 200: answer, ...errorResponses } } },
      async () => ({ id: 'u1' }) as z.infer<typeof answer>,
    );
  });
  afterAll(() => t?.close());

  it('sends only the fields the response schema names', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/test/serialised' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: 'u1', name: 'Ada' });
    expect(res.body).not.toContain('secret');
  });

  it('an answer that breaks its contract is a 500 with the usual error body, not a partial answer', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/test/broken' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: { code: 'internal', message: MSG.api.internal } });
  });
});
