import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DEMO_TOKEN, startEmulator, type Emulator } from '@studybuddy/canvas-emulator/server';
import type { LmsStatus } from '@studybuddy/shared/lms';
import { MSG } from '@studybuddy/shared/messages';
import type { SessionInfo } from '@studybuddy/shared/session';
import { logIn } from './accounts.ts';
import { startMailbox, type Mailbox } from './auth-mailbox.ts';
import { expectAccessible, launchBrowser, newPage, screenshotWidths } from './browser.ts';
import { chooseFiles, makeImage } from './profile-helpers.ts';
import { startServer, type RunningServer } from './server.ts';
import { WEB_DIST } from './web-bundle.ts';

/** Starting the server (and seeding) can take long on a busy machine. */
const STARTUP_MS = 180_000;

const UCLA = {
  key: 'UCLA',
  name: 'UCLA',
  domains: ['ucla.edu', 'mednet.ucla.edu', 'g.ucla.edu'],
  lms: { kind: 'canvas', url: 'https://bruinlearn.ucla.edu' },
};
const WISC = { key: 'WISC', name: 'University of Wisconsin-Madison', domains: ['wisc.edu'] };
const CMU = { key: 'CMU', name: 'Carnegie Mellon', domains: ['andrew.cmu.edu'] };
const OXFORD = 'University of Oxford';

/**
 * Issue 26 point 1: a fourth university from UNIVERSITIES_FILE. The data folder first runs with Wisconsin in the file
 * (a Wisconsin student joins), then with a file that drops Wisconsin, closes Carnegie Mellon to sign-ups and adds
 * Oxford, whose Canvas is the emulator at the address the file names. Set UNIVERSITIES_SCREENSHOTS to a folder to keep
 * pictures of the sign-up refusal and the terms at 1280 and 375 px.
 */
describe('universities from a settings file, in Chromium', () => {
  let dir: string;
  let emu: Emulator;
  let mailbox: Mailbox;
  let server: RunningServer;
  let browser: Browser;

  const file = (name: string, universities: unknown[]) => {
    const at = path.join(dir, name);
    return writeFile(at, JSON.stringify({ universities })).then(() => at);
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'sb-e2e-universities-'));
    const dataDir = path.join(dir, 'data');
    [emu, mailbox, browser] = await Promise.all([startEmulator({ throttle: false }), startMailbox(), launchBrowser()]);
    const before = await file('before.json', [UCLA, WISC]);
    const earlier = await startServer({ DATA_DIR: dataDir, UNIVERSITIES_FILE: before }, [
      { email: 'wren@wisc.edu', name: 'Wren Badger' },
    ]);
    await earlier.stop();
    const now = await file('now.json', [
      UCLA,
      { key: 'OXF', name: OXFORD, domains: ['ox.ac.uk'], lms: { kind: 'canvas', url: emu.url } },
      { ...CMU, signUp: false },
    ]);
    server = await startServer(
      { DATA_DIR: dataDir, UNIVERSITIES_FILE: now, SMTP_URL: mailbox.smtpUrl, RATE_LIMITS: 'false' },
      [
        // Same major, year and course as the new student: only the college tells them apart.
        { email: 'olive@ox.ac.uk', name: 'Olive Oxford', major: 'Mathematics', year: 'Junior', courses: ['Analysis'] },
        { email: 'uma@g.ucla.edu', name: 'Uma Bruin', major: 'Mathematics', year: 'Junior', courses: ['Analysis'] },
        { email: 'carl@andrew.cmu.edu', name: 'Carl Tartan' },
      ],
    );
  }, STARTUP_MS);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await mailbox?.close();
    await emu?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const screenshots = (page: Page, name: string) => screenshotWidths(page, process.env.UNIVERSITIES_SCREENSHOTS, name);

  async function signUp(page: Page, email: string) {
    await page.goto(`${server.url}/signup`);
    await page.getByLabel('University Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('secret123');
    await page.getByRole('button', { name: MSG.signup.submit }).click();
  }

  it('the web app shows the universities of the file (from the server), not the compiled-in three', async () => {
    const page = await newPage(browser);
    const listed = page.waitForResponse((r) => r.url().endsWith('/api/universities'));
    await page.goto(`${server.url}/terms`);
    expect((await listed).status()).toBe(200);
    await page.getByText(`(UCLA and ${OXFORD})`, { exact: false }).waitFor();
    expect(await page.getByText('Wisconsin').count()).toBe(0);
    await screenshots(page, 'terms');
    await page.close();
    // The built web app holds no list of its own.
    const assets = path.join(WEB_DIST, 'assets');
    for (const name of (await readdir(assets)).filter((f) => f.endsWith('.js'))) {
      const code = await readFile(path.join(assets, name), 'utf8');
      for (const known of ['andrew.cmu.edu', 'bruinlearn', 'Wisconsin-Madison']) expect(code).not.toContain(known);
    }
  });

  it('nobody new signs up with a removed or a closed university, whose students still log in', async () => {
    const page = await newPage(browser);
    for (const email of ['new@wisc.edu', 'new@andrew.cmu.edu']) {
      await signUp(page, email);
      await page.getByText(MSG.signup.invalidDomain).waitFor();
      expect(page.url()).toMatch(/\/signup$/);
    }
    await screenshots(page, 'signup-closed-university');
    // The server refuses them too (a page that skipped its own check).
    const res = await page.request.post(`${server.url}/api/auth/signup`, {
      data: { email: 'other@wisc.edu', password: 'secret123' },
    });
    expect(res.status()).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(MSG.signup.invalidDomain);
    await expectAccessible(page);

    for (const [email, college] of [
      ['wren@wisc.edu', 'University of Wisconsin-Madison'],
      ['carl@andrew.cmu.edu', 'Carnegie Mellon'],
    ] as const) {
      await logIn(page, server.url, email);
      await page.getByRole('button', { name: 'Account menu' }).getByText(college).waitFor();
      const session = (await (await page.request.get(`${server.url}/api/auth/session`)).json()) as SessionInfo;
      expect(session.profile).toMatchObject({ email, college });
      await page.context().clearCookies();
    }
    await page.close();
  });

  it('a student of the fourth university signs up, is matched at its own college, and connects its Canvas', async () => {
    const email = 'ada@ox.ac.uk';
    const page = await newPage(browser);
    await signUp(page, email);
    await page.waitForURL(/\/login$/);
    await page.goto(await mailbox.waitForLink(email, 'verifyEmail'));
    await page.getByText(MSG.login.verified).waitFor();
    await logIn(page, server.url, email, 'secret123');
    await page.waitForURL(/\/profile$/);

    // The profile: the college is the file's name for the university.
    const welcome = page.getByRole('dialog', { name: MSG.profile.welcomeTitle });
    await welcome.getByRole('button', { name: MSG.profile.welcomeButton }).click();
    await welcome.waitFor({ state: 'hidden' });
    const college = page.getByLabel(MSG.profile.fields.college);
    await expect.poll(() => college.inputValue()).toBe(OXFORD);
    await page.getByLabel(MSG.profile.fields.name).fill('Ada Lovelace');
    await page.getByLabel(MSG.profile.fields.major).fill('Mathematics');
    await page.getByRole('combobox', { name: MSG.profile.fields.year }).click();
    await page.getByRole('option', { name: 'Junior' }).click();
    const photo = await makeImage(page, { width: 600, height: 600, type: 'image/jpeg', seed: 5 });
    await chooseFiles(page, MSG.profile.uploadPicture, [{ name: 'me.jpg', mimeType: 'image/jpeg', buffer: photo }]);
    const crop = page.getByRole('dialog', { name: MSG.profile.crop.title });
    await crop.getByRole('button', { name: MSG.profile.crop.apply }).click();
    await crop.waitFor({ state: 'hidden' });
    await expect
      .poll(() => page.getByRole('img', { name: MSG.profile.fields.picture }).getAttribute('src'))
      .toMatch(/^\/api\/files\/users\//);
    await page.getByRole('button', { name: MSG.profile.save }).click();
    await page.getByRole('button', { name: MSG.profile.editProfile }).waitFor();

    // Matching: the Oxford student only; the UCLA student with the same major, year and course is not offered.
    await page.goto(`${server.url}/matchmaking`);
    const card = page.getByTestId('match-candidate');
    await card.waitFor();
    expect(await card.getByRole('heading').first().innerText()).toBe('Olive Oxford');
    expect(await card.getByText(OXFORD).isVisible()).toBe(true);
    await card.getByRole('button', { name: MSG.match.next }).click();
    await page.getByText(MSG.match.empty).waitFor();
    expect(await page.getByText('Uma Bruin').count()).toBe(0);

    // Canvas: connected against the emulator at the address the file names.
    const status = (await (await page.request.get(`${server.url}/api/lms/status`)).json()) as LmsStatus;
    expect(status).toMatchObject({ available: true, connected: false, settings_url: `${emu.url}/profile/settings` });
    emu.requests.length = 0;
    await page.goto(`${server.url}/assignments`);
    await page.getByRole('button', { name: MSG.lms.connect }).click();
    const feature = page.getByRole('dialog', { name: MSG.lms.featureTitle });
    await feature.getByRole('checkbox', { name: MSG.lms.terms }).check();
    await feature.getByRole('button', { name: MSG.lms.continue }).click();
    const tokenDialog = page.getByRole('dialog', { name: MSG.lms.tokenTitle });
    await tokenDialog.getByLabel(MSG.lms.tokenLabel, { exact: true }).fill(DEMO_TOKEN);
    await tokenDialog.getByRole('button', { name: MSG.lms.import }).click();
    await page.getByText(MSG.lms.imported(10)).waitFor();
    await page.locator('[data-testid="coursework-card"]').first().waitFor();
    expect(emu.requests.some((r) => r.token === DEMO_TOKEN && r.status === 200)).toBe(true);
    const link = page
      .locator('[data-testid="coursework-card"]')
      .first()
      .getByRole('link', { name: /^View / });
    expect(await link.getAttribute('href')).toMatch(new RegExp(`^${emu.url}/courses/\\d+/`));
    await page.close();
  });

  it('an invalid universities file stops the server, naming the entry and field', async () => {
    const bad = await file('bad.json', [UCLA, { key: 'OXF', name: OXFORD, domains: ['law.ucla.edu'] }]);
    const refused = await startServer({ UNIVERSITIES_FILE: bad }).then(
      async (started) => {
        await started.stop();
        return 'started';
      },
      (err: unknown) => String(err),
    );
    expect(refused).toContain(
      `Configuration error: UNIVERSITIES_FILE ${bad}: universities[1] ("OXF") domains[0]: "law.ucla.edu" overlaps ` +
        '"ucla.edu" of universities[0] ("UCLA")',
    );
  });
});
