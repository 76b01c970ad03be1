import Fastify from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { afterEach, describe, expect, it } from 'vitest';
import { installSessionResolver, SESSION_COOKIE, type SessionStore, type SessionUser } from './session.ts';

const alice: SessionUser = { id: 'u1', email: 'alice@uni.edu', emailVerified: true, sessionId: 's1' };

/** A store whose lookups wait until `answer` is called, counting how many it was asked. */
function slowStore() {
  const asked: string[] = [];
  const waiting: Array<() => void> = [];
  const store: SessionStore = {
    find(token) {
      asked.push(token);
      return new Promise((resolve) => waiting.push(() => resolve(token === 'good' ? alice : null)));
    },
  };
  return { store, asked, answer: () => waiting.splice(0).forEach((go) => go()) };
}

describe('installSessionResolver', () => {
  const app = Fastify();
  afterEach(() => app.close());

  it('shares one lookup among requests with the same cookie that arrive while it is under way, and keeps nothing after', async () => {
    const { store, asked, answer } = slowStore();
    await app.register(fastifyCookie);
    installSessionResolver(app, store);
    app.get('/api/me', async (request) => ({ id: request.user?.id ?? null }));
    const get = (token: string) =>
      app.inject({ method: 'GET', url: '/api/me', headers: { cookie: `${SESSION_COOKIE}=${token}` } });

    const burst = [...Array.from({ length: 20 }, () => get('good')), get('bad'), get('bad')];
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked.sort()).toEqual(['bad', 'good']);
    answer();
    const answers = await Promise.all(burst);
    expect(answers.map((res) => res.json<{ id: string | null }>().id)).toEqual([
      ...Array.from({ length: 20 }, () => 'u1'),
      null,
      null,
    ]);

    // A later request asks the store again (a session ended meanwhile must not live on in a cache).
    const later = get('good');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(asked).toHaveLength(3);
    answer();
    expect((await later).json()).toEqual({ id: 'u1' });
  });
});
