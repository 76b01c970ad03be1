import { describe, expect, it } from 'vitest';
import { MSG } from '@studybuddy/shared/messages';
import { expectAccessible, newPage } from './browser.ts';
import { fakeSession } from './fake-session.ts';
import { serverAndBrowser } from './suite.ts';

describe('platform in Chromium', () => {
  const app = serverAndBrowser();

  it('shows the 404 page for an unknown path', async () => {
    const page = await newPage(app.browser);
    await page.goto(`${app.server.url}/no-such-page`);
    await page.getByRole('heading', { name: MSG.notFound.title }).waitFor();
    expect(await page.getByText(MSG.notFound.body).isVisible()).toBe(true);
    await expectAccessible(page);
    await page.close();
  });

  it('shows the slow notice after 5 s and the retry link after 15 s while loading', async () => {
    const page = await newPage(app.browser);
    await page.clock.install();
    await page.route('**/api/auth/session', () => {
      // never answers: the app keeps loading
    });
    await page.goto(`${app.server.url}/feedback`);
    await page.getByText(MSG.loading.authenticating).waitFor();
    expect(await page.getByText(MSG.loading.slow).count()).toBe(0);
    await page.clock.fastForward(5_100);
    await page.getByText(MSG.loading.slow).waitFor();
    expect(await page.getByText(MSG.loading.slowNote).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: MSG.loading.retry }).count()).toBe(0);
    await page.clock.fastForward(10_000);
    await page.getByRole('button', { name: MSG.loading.retry }).waitFor();
    await expectAccessible(page);
    await page.close();
  });

  it('refuses incomplete feedback and thanks for a complete one', async () => {
    const page = await newPage(app.browser);
    await fakeSession(page);
    await page.goto(`${app.server.url}/feedback`);
    await page.getByRole('heading', { name: MSG.feedback.title }).waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: MSG.feedback.submit }).click();
    await page.getByText(MSG.feedback.textRequired).waitFor();
    expect(await page.getByText(MSG.feedback.ratingRequired).isVisible()).toBe(true);

    await page.getByLabel('Your feedback').fill('The match finder is great.');
    await page.getByRole('combobox', { name: 'Rating' }).click();
    await page.getByRole('option', { name: '4 - Good' }).click();
    const posted = page.waitForRequest((r) => r.url().endsWith('/api/feedback') && r.method() === 'POST');
    await page.getByRole('button', { name: MSG.feedback.submit }).click();
    expect((await posted).postDataJSON()).toEqual({ feedback: 'The match finder is great.', rating: 4 });
    await page.getByText(MSG.feedback.thanks).waitFor();
    await page.close();
  });

  it('toggles the sidebar with the menu button at 375 px and closes it after navigation', async () => {
    const page = await newPage(app.browser, { viewport: { width: 375, height: 740 } });
    await fakeSession(page);
    await page.goto(`${app.server.url}/feedback`);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    const groupsLink = nav.getByRole('link', { name: 'Groups' });
    await page.getByRole('heading', { name: MSG.feedback.title }).waitFor();
    const onScreen = () => groupsLink.evaluate((el) => el.getBoundingClientRect().right > 0);
    expect(await onScreen()).toBe(false);
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await expect.poll(onScreen).toBe(true);
    for (const label of ['Notifications', 'BuddyFinder', 'Friends', 'Groups', 'Assignments', 'Courses', 'Feedback']) {
      expect(await nav.getByRole('link', { name: label, exact: true }).isVisible()).toBe(true);
    }
    await groupsLink.click();
    await page.waitForURL(/\/groups$/);
    await expect.poll(onScreen).toBe(false);
    await expectAccessible(page);
    await page.close();
  });

  it('the accessibility check fails on a page with a serious violation', async () => {
    const page = await newPage(app.browser);
    await page.setContent('<html lang="en"><body><main><button></button><img src="x.png"></main></body></html>');
    await expect(expectAccessible(page)).rejects.toThrow(/button-name|image-alt/);
    await page.close();
  });

  it("keeps Playwright's disabled features and starts no omnibox popup renderers", async () => {
    const cdp = await app.browser.newBrowserCDPSession();
    const { arguments: args } = (await cdp.send('Browser.getBrowserCommandLine')) as { arguments: string[] };
    const lists = args
      .filter((a) => a.startsWith('--disable-features='))
      .map((a) => a.slice('--disable-features='.length).split(','));
    // Chromium reads the last list only: it must hold Playwright's (the first) and ours.
    expect(lists.length).toBeGreaterThan(1);
    expect(lists.at(-1)).toEqual(
      expect.arrayContaining([...(lists[0] ?? []), 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']),
    );
    const page = await newPage(app.browser);
    const { targetInfos } = await cdp.send('Target.getTargets');
    expect(targetInfos.filter((t) => t.type === 'browser_ui').map((t) => t.url)).toEqual([]);
    await page.close();
    await cdp.detach();
  });
});
