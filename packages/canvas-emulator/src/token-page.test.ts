import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from './server.ts';

describe('the token pages (Account → Settings → + New Access Token)', () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator({ throttle: false });
  });
  afterAll(() => emu.close());

  it('goes from the Account tray to Settings, and a generated token works against the API at once', async () => {
    const tray = await (await fetch(`${emu.url}/?tray=account`)).text();
    expect(tray).toContain('href="/profile/settings"');
    const settings = await fetch(`${emu.url}/profile/settings`);
    expect(settings.headers.get('content-type')).toContain('text/html');
    const html = await settings.text();
    expect(html).toContain('Approved Integrations');
    expect(html).toContain('+ New Access Token');
    expect(await (await fetch(`${emu.url}/profile/settings?new_token=1`)).text()).toContain('Generate Token');

    const made = await fetch(`${emu.url}/profile/settings/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'purpose=StudyBuddy+%3Cb%3E&expires=',
    });
    const details = await made.text();
    expect(details).toContain('Access Token Details');
    expect(details).toContain('StudyBuddy &lt;b&gt;');
    const token = /id="token-value">([^<]+)</.exec(details)![1]!;
    expect(token).toMatch(/^7~[A-Za-z0-9]{64}$/);
    const courses = await fetch(`${emu.url}/api/v1/courses`, { headers: { Authorization: `Bearer ${token}` } });
    expect(courses.status).toBe(200);
    // Listed afterwards with its last characters only.
    const listed = await (await fetch(`${emu.url}/profile/settings`)).text();
    expect(listed).toContain(`…${token.slice(-4)}`);
    expect(listed).not.toContain(token);
  });
});
