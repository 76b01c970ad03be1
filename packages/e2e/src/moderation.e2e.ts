import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MSG } from '@studybuddy/shared/messages';
import { MODERATION_MSG } from '@studybuddy/shared/messages/moderation';
import { logIn } from './accounts.ts';
import { expectAccessible, launchBrowser, newPage, screenshotWidths } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';

const ADA = 'ada.reporter@g.ucla.edu';
const BOB = 'bob.reported@g.ucla.edu';
const MOD = 'maya.moderator@g.ucla.edu';
const RUDE = 'You will regret reporting me';

const R = MODERATION_MSG.report;
const A = MODERATION_MSG.admin;

/**
 * Issue 24 points 2 and 3 in Chromium: a student reports a message from its menu; an admin (ADMINS) finds it in the
 * report queue with what the reporter saw and resolves it by disabling the reported student, whose open tab is signed
 * out at once and who cannot log in again; the other admin pages and the report dialog pass axe. Set
 * MODERATION_SCREENSHOTS to a folder to keep pictures of the admin page at 1280 and 375 pixels wide.
 */
describe('report → admin disables the account, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let ada: Page;
  let bob: Page;
  let mod: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ ADMINS: MOD, RATE_LIMITS: 'false' }, [
        { email: ADA, name: 'Ada Reporter', friends: [BOB] },
        { email: BOB, name: 'Bob Reported' },
        { email: MOD, name: 'Maya Moderator' },
      ]),
      launchBrowser(),
    ]);
    [ada, bob, mod] = await Promise.all([
      newPage(browser),
      newPage(browser),
      newPage(browser, { viewport: { width: 1280, height: 900 } }),
    ]);
    await Promise.all([logIn(ada, server.url, ADA), logIn(bob, server.url, BOB), logIn(mod, server.url, MOD)]);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const chatWith = (email: string) => `${server.url}/friends?friend=${server.userIds[email]}`;
  const composer = (page: Page) => page.getByRole('textbox', { name: MSG.chat.messageLabel });
  const bubbles = (page: Page) => page.getByRole('log', { name: MSG.chat.historyLabel }).getByTestId('message');
  const reportCard = (page: Page) => page.getByTestId('admin-report').filter({ hasText: BOB });

  const screenshots = (page: Page, name: string) => screenshotWidths(page, process.env.MODERATION_SCREENSHOTS, name);

  it('a student reports a message from its menu and is told only that it was received', async () => {
    await bob.goto(chatWith(ADA));
    await composer(bob).fill(RUDE);
    await bob.keyboard.press('Enter');
    await bubbles(bob).filter({ hasText: RUDE }).and(bob.locator('[data-state="sent"]')).waitFor();

    await ada.goto(chatWith(BOB));
    const rude = bubbles(ada).filter({ hasText: RUDE });
    await rude.waitFor();
    // The chat header offers to report the student too.
    await ada.getByRole('button', { name: R.reportStudent('Bob Reported') }).waitFor();
    // Her own messages have no report menu.
    await rude.getByRole('button', { name: R.messageMenu }).click();
    await ada.getByRole('menuitem', { name: R.reportMessage }).click();
    const dialog = ada.getByRole('dialog', { name: R.reportMessage });
    await dialog.waitFor();
    // A reason is required.
    await dialog.getByRole('button', { name: R.submit }).click();
    await dialog.getByText(R.reasonRequired).waitFor();
    await expectAccessible(ada);
    await screenshots(ada, 'report-dialog');
    await dialog.getByRole('combobox', { name: R.reason }).click();
    await ada.getByRole('option', { name: R.reasons.harassment }).click();
    await dialog.getByRole('textbox', { name: R.details }).fill('He keeps threatening me after I asked him to stop.');
    await dialog.getByRole('button', { name: R.submit }).click();
    await dialog.getByText(R.sent).waitFor();
    await dialog.getByRole('button', { name: R.close, exact: true }).last().click();
    await dialog.waitFor({ state: 'hidden' });

    // A student's card in the match finder offers Report too.
    await ada.goto(`${server.url}/matchmaking`);
    await ada
      .getByTestId('match-candidate')
      .getByRole('button', { name: R.reportStudent('Maya Moderator') })
      .waitFor();
    await screenshots(ada, 'match-card');

    // Students get the ordinary "not found" at /admin, and the API says the same.
    await ada.goto(`${server.url}/admin`);
    await ada.getByRole('heading', { name: MSG.notFound.title }).waitFor();
    expect((await ada.request.get(`${server.url}/api/admin/reports`)).status()).toBe(404);
  });

  it('the admin sees the report with what the reporter saw; every admin tab passes axe', async () => {
    await mod.goto(`${server.url}/admin`);
    await mod.getByRole('heading', { name: A.title }).waitFor();
    const card = reportCard(mod);
    await card.waitFor();
    await card.getByText(RUDE).waitFor();
    await card.getByText(ADA).waitFor();
    await card.getByText('He keeps threatening me').waitFor();
    expect(await card.locator('[data-reported]').textContent()).toContain(RUDE);
    await expectAccessible(mod);
    await screenshots(mod, 'admin-reports');

    await mod.getByRole('tab', { name: A.tabs.feedback }).click();
    await mod.getByText(A.noFeedback).waitFor();
    await expectAccessible(mod);

    await mod.getByRole('tab', { name: A.tabs.students }).click();
    await mod.getByRole('textbox', { name: A.searchLabel }).fill('reported');
    const row = mod.getByTestId('admin-students').getByRole('row').filter({ hasText: BOB });
    await row.waitFor();
    await expectAccessible(mod);
    await screenshots(mod, 'admin-students');

    await mod.getByRole('tab', { name: A.tabs.audit }).click();
    await mod.getByText(A.noAudit).waitFor();
    await expectAccessible(mod);
    await mod.getByRole('tab', { name: A.tabs.reports }).click();
  });

  it('disabling the account signs the reported student out of the open tab at once; the log-in says the account is disabled', async () => {
    await bob.goto(chatWith(ADA));
    await composer(bob).waitFor();

    const card = reportCard(mod);
    await card.getByRole('button', { name: A.actions.disable }).click();
    const dialog = mod.getByRole('dialog', { name: A.confirmTitle.disable });
    await dialog.waitFor();
    await dialog.getByRole('textbox', { name: A.why }).fill('Threats in chat, confirmed from the report.');
    await expectAccessible(mod);
    await dialog.getByRole('button', { name: A.actions.disable }).click();
    await mod.getByText(A.done).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    // Settled: the report left the open queue.
    await card.waitFor({ state: 'detached' });

    // Bob's tab leaves for the log-in page at once (the socket closes as signed out; no reload, no 15 s poll).
    await bob.waitForURL(/\/login$/, { timeout: 5000 });
    await bob.getByLabel('Email', { exact: true }).fill(BOB);
    await bob.getByLabel('Password', { exact: true }).fill('password123');
    await bob.getByRole('button', { name: 'Log In', exact: true }).click();
    await bob.getByText(MSG.reset.accountDisabled).waitFor();
    expect(MSG.reset.accountDisabled).toBe('Account is disabled. Please contact support.');
    expect(new URL(bob.url()).pathname).toBe('/login');

    // The resolved report and the audit log say what was done, by whom and why.
    await mod.locator('label', { hasText: A.resolved }).click();
    const resolved = reportCard(mod);
    await resolved.getByText(`${A.audit.actions.disableAccount}: Threats in chat`, { exact: false }).waitFor();
    await resolved.getByText(A.disabledBadge, { exact: true }).waitFor();
    await mod.getByRole('tab', { name: A.tabs.audit }).click();
    const entry = mod.getByTestId('admin-audit').getByRole('row').filter({ hasText: BOB });
    await entry.getByText(A.audit.actions.disableAccount).waitFor();
    await entry.getByText(MOD).waitFor();
    await entry.getByText('Threats in chat, confirmed from the report.').waitFor();
    await expectAccessible(mod);
    await screenshots(mod, 'admin-audit');
  });
});
