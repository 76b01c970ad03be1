import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CalendarFeedResponse } from '@studybuddy/shared/calendar';
import { unsubscribeToken } from '../features/social/request-mail.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { createUser } from '../test/users.ts';
import { REDACTED, redactUrl } from './logger.ts';

/** A log destination the test reads: every line pino writes. */
function captureLog() {
  const lines: string[] = [];
  return { stream: { write: (line: string) => void lines.push(line) }, text: () => lines.join('') };
}

describe('redactUrl', () => {
  it('hides feed secrets and secret query values, keeps the rest', () => {
    expect(redactUrl('/api/calendar/feed/AbC_12-x.ics')).toBe(`/api/calendar/feed/${REDACTED}`);
    expect(redactUrl('/api/social/unsubscribe?token=a.b')).toBe(`/api/social/unsubscribe?token=${REDACTED}`);
    expect(redactUrl('/verify?mode=resetPassword&oobCode=xyz')).toBe(`/verify?mode=resetPassword&oobCode=${REDACTED}`);
    expect(redactUrl('/api/calendar/google/callback?state=s1&code=c1&scope=x')).toBe(
      `/api/calendar/google/callback?state=${REDACTED}&code=${REDACTED}&scope=x`,
    );
    expect(redactUrl('/x?access%5Ftoken=t&q=ada')).toBe(`/x?access%5Ftoken=${REDACTED}&q=ada`);
    expect(redactUrl('/api/social/search?q=ada&limit=5')).toBe('/api/social/search?q=ada&limit=5');
  });
});

describe('request logs', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    vi.unstubAllEnvs();
    await t?.close();
    t = undefined;
  });

  it('never carry feed secrets, unsubscribe tokens, e-mail codes, cookies or authorization', async () => {
    const log = captureLog();
    t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream: log.stream });
    const ada = await createUser(t.app);
    const feed = await t.app.inject({ method: 'POST', url: '/api/calendar/feed', headers: { cookie: ada.cookie } });
    const feedPath = new URL(feed.json<CalendarFeedResponse>().url!).pathname;
    const feedSecret = /\/feed\/(.+)\.ics$/.exec(feedPath)![1]!;
    const token = unsubscribeToken(t.config.secretKey, ada.id);
    const code = 'oob0c0de5ecret';

    expect((await t.app.inject({ url: feedPath })).statusCode).toBe(200);
    const unsubscribe = await t.app.inject({ url: `/api/social/unsubscribe?token=${encodeURIComponent(token)}` });
    expect(unsubscribe.statusCode).toBe(200);
    await t.app.inject({ url: `/verify?mode=verifyEmail&oobCode=${code}` });
    await t.app.inject({
      url: '/api/auth/session',
      headers: { cookie: ada.cookie, authorization: 'Bearer t0psecretbearer' },
    });

    const text = log.text();
    expect(text).toContain('incoming request');
    for (const secret of [feedSecret, token, encodeURIComponent(token), code, ada.cookie.split('=')[1]!, 't0psecret']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain(`/api/calendar/feed/${REDACTED}`);
    expect(text).toContain(`/api/social/unsubscribe?token=${REDACTED}`);
    expect(text).toContain(`oobCode=${REDACTED}`);
  });

  it('mail links (codes) are logged from the outbox only outside production', async () => {
    const link = 'http://localhost:3000/verify?mode=verifyEmail&oobCode=c0de1nma1l';
    const mail = { to: 'ada@g.ucla.edu', subject: 'Verify', text: `Open ${link}\n` };

    vi.stubEnv('NODE_ENV', 'production');
    const production = captureLog();
    t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream: production.stream });
    await t.app.ctx.mailer.send(mail);
    expect(production.text()).toContain('mail to ada@g.ucla.edu saved in the outbox');
    expect(production.text()).not.toContain('c0de1nma1l');
    await t.close();

    vi.stubEnv('NODE_ENV', 'development');
    const development = captureLog();
    t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream: development.stream });
    await t.app.ctx.mailer.send(mail);
    expect(development.text()).toContain(link);
  });
});
