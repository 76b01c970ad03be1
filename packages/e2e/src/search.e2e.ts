import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chatIdFor } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import { logIn } from './accounts.ts';
import { expectAccessible, launchBrowser, newPage } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';

const ADA = 'ada.search@g.ucla.edu';
const BEN = 'ben.search@g.ucla.edu';
const EVE = 'eve.search@g.ucla.edu';
/** The word the journey searches for: in one old message only, far above the newest page of the chat. */
const WORD = 'xylophone';
const FOUND = `Bring the ${WORD} to the library on Friday`;
/** Where SEARCH_SCREENSHOTS puts the dialog's screenshots (1280 and 375 wide). */
const SHOTS = process.env.SEARCH_SCREENSHOTS;
/** Newer messages after the found one: more than the page around it and the next page together (15 + 30). */
const FILLERS = 100;
const NEWEST = `Filler message number ${FILLERS - 1}`;

describe('one search box in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let ada: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({}, [
        {
          email: ADA,
          name: 'Ada Lovelace',
          friends: [BEN],
          coursework: [
            { courseId: '4100', courseName: 'Acoustics', items: [{ id: 'assignment_1', name: 'Xylophone lab' }] },
          ],
        },
        { email: BEN, name: 'Ben Carter' },
        { email: EVE, name: 'Eve Xylander' },
      ]),
      launchBrowser(),
    ]);
    ada = await newPage(browser, { viewport: { width: 1280, height: 800 } });
    await logIn(ada, server.url, ADA);
    // The found message, then enough newer ones that neither the page opened at it nor one automatic page below
    // it (the bottom sentinel may start within its margin, depending on fonts and layout) reaches the newest.
    const chat = chatIdFor(server.userIds[ADA]!, server.userIds[BEN]!);
    const send = async (content: string) => {
      const res = await ada.request.post(`${server.url}/api/chats/${chat}/messages`, {
        data: { id: randomUUID(), type: 'text', content },
      });
      expect(res.status()).toBe(201);
    };
    await send(FOUND);
    for (let i = 0; i < FILLERS; i++) await send(`Filler message number ${i}`);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const dialog = (page: Page) => page.getByRole('dialog', { name: MSG.search.dialogTitle });
  const input = (page: Page) => dialog(page).getByRole('combobox', { name: MSG.search.label });
  const options = (page: Page) => dialog(page).getByRole('option');

  it('Ctrl+K opens the search, a word finds the message (marked), the keyboard lands on it in its chat', async () => {
    await ada.goto(`${server.url}/notifications`);
    await ada.getByRole('heading', { name: MSG.notifications.title }).waitFor();
    await ada.keyboard.press('Control+KeyK');
    await input(ada).waitFor();
    expect(await input(ada).evaluate((el) => el === document.activeElement)).toBe(true);
    await ada.keyboard.type(WORD.slice(0, 3)); // as typed: 'xyl' finds what starts with it
    await dialog(ada)
      .getByRole('status')
      .filter({ hasText: MSG.search.results(3) })
      .waitFor();

    // Grouped: Eve (same college, by her name), the message, the coursework item; each with the words marked.
    expect(await dialog(ada).getByRole('group').count()).toBe(3);
    const message = options(ada).filter({ hasText: 'library on Friday' });
    expect(await message.locator('mark').allTextContents()).toEqual([WORD]);
    expect(await options(ada).filter({ hasText: 'Eve Xylander' }).locator('mark').allTextContents()).toEqual([
      'Xylander',
    ]);
    expect(await options(ada).filter({ hasText: 'Xylophone lab' }).count()).toBe(1);
    await expectAccessible(ada);
    if (SHOTS) {
      await mkdir(SHOTS, { recursive: true });
      await ada.screenshot({ path: `${SHOTS}/search-1280.png` });
    }

    // Arrows move the active option (the input keeps the focus); Enter opens it.
    const activeText = () =>
      ada.evaluate(() => {
        const id = document.activeElement?.getAttribute('aria-activedescendant');
        return id ? (document.getElementById(id)?.textContent ?? '') : '';
      });
    expect(await activeText()).toContain('Eve Xylander');
    await ada.keyboard.press('ArrowDown');
    expect(await activeText()).toContain('library on Friday');
    await ada.keyboard.press('ArrowUp');
    await ada.keyboard.press('ArrowUp'); // wraps to the last one
    expect(await activeText()).toContain('Xylophone lab');
    await ada.keyboard.press('ArrowDown');
    await ada.keyboard.press('ArrowDown');
    await ada.keyboard.press('Enter');

    await ada.waitForURL((url) => url.pathname === '/friends' && url.searchParams.has('message'));
    await dialog(ada).waitFor({ state: 'detached' });
    const found = ada.locator('[data-found="true"]');
    await found.waitFor();
    expect(await found.textContent()).toContain(FOUND);
    expect(await found.isVisible()).toBe(true);
    // In view inside the history, and focused: a keyboard user is on the message.
    const inView = await found.evaluate((el) => {
      const log = el.closest('[role="log"]')!.getBoundingClientRect();
      const box = el.getBoundingClientRect();
      return box.top >= log.top && box.bottom <= log.bottom;
    });
    expect(inView).toBe(true);
    expect(await found.evaluate((el) => el === document.activeElement)).toBe(true);
    // The newest messages are not loaded yet; scrolling down brings them, a page at a time.
    const log = ada.getByRole('log', { name: MSG.chat.historyLabel });
    const newest = log.getByText(NEWEST, { exact: true });
    expect(await newest.count()).toBe(0);
    await expect
      .poll(
        async () => {
          await log.evaluate((el) => el.scrollTo(0, el.scrollHeight));
          return newest.count();
        },
        { timeout: 30_000 },
      )
      .toBe(1);
  });

  it('works by keyboard alone and closes with Escape; a non-member finds nothing of the chat', async () => {
    const eve = await newPage(browser, { viewport: { width: 375, height: 740 } });
    await logIn(eve, server.url, EVE);
    await eve.goto(`${server.url}/friends`);
    // The search button is in the mobile header; Tab reaches it, Enter opens the dialog.
    const button = eve.getByRole('button', { name: MSG.search.open });
    await button.waitFor();
    await button.focus();
    await eve.keyboard.press('Enter');
    await input(eve).waitFor();
    await eve.keyboard.type(WORD);
    await dialog(eve)
      .getByRole('status')
      .filter({ hasText: MSG.search.noResults(WORD) })
      .waitFor();
    expect(await options(eve).count()).toBe(0);
    await expectAccessible(eve);
    await eve.keyboard.press('Escape');
    await dialog(eve).waitFor({ state: 'hidden' });
    // The focus goes back to the button once the dialog has closed.
    await button.evaluate(
      (el) =>
        new Promise<void>((resolve, reject) => {
          const t0 = Date.now();
          const check = () =>
            el === document.activeElement
              ? resolve()
              : Date.now() - t0 > 5000
                ? reject(new Error(`focus is on ${document.activeElement?.outerHTML.slice(0, 120)}`))
                : setTimeout(check, 50);
          check();
        }),
    );

    // Her own name is not a result for her; Ada (same college) is.
    await eve.keyboard.press('Control+KeyK');
    await input(eve).fill('ada');
    await dialog(eve)
      .getByRole('status')
      .filter({ hasText: MSG.search.results(1) })
      .waitFor();
    expect(await options(eve).first().textContent()).toContain('Ada Lovelace');
    if (SHOTS) await eve.screenshot({ path: `${SHOTS}/search-375.png` });
    // A student who is not a friend opens as their card in the match finder (to send a request).
    await eve.keyboard.press('Enter');
    await eve.waitForURL((url) => url.pathname === '/matchmaking');
    await eve.getByRole('button', { name: MSG.match.backToMatches }).waitFor();
    expect(await eve.getByText('Ada Lovelace').first().isVisible()).toBe(true);
    await eve.close();
  });

  /** Holds every request `pattern` matches until the returned release is called; `asked` settles at the first. */
  async function hold(page: Page, pattern: string) {
    let release!: () => void;
    let seen!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const asked = new Promise<void>((resolve) => (seen = resolve));
    await page.route(pattern, async (route) => {
      seen();
      await released;
      await route.continue();
    });
    return { asked, release };
  }

  /** The dialog opens by itself with `typed` in its box and the results for it. */
  async function expectOpenedWith(page: Page, typed: string, found: number) {
    await input(page).waitFor();
    await page.waitForFunction(
      ([label, value]) => document.querySelector<HTMLInputElement>(`input[aria-label="${label}"]`)?.value === value,
      [MSG.search.label, typed] as const,
    );
    await dialog(page)
      .getByRole('status')
      .filter({ hasText: MSG.search.results(found) })
      .waitFor();
    expect(await input(page).evaluate((el) => el === document.activeElement)).toBe(true);
  }

  it('Ctrl+K pressed as the page loads, before the shell is there, opens the search with what was typed meanwhile', async () => {
    const page = await newPage(browser, { viewport: { width: 1280, height: 800 } });
    await logIn(page, server.url, ADA);
    // The next load's session answer waits: the keys are pressed while the page shows only its loading screen.
    const session = await hold(page, '**/api/auth/session');
    await page.goto(`${server.url}/notifications`, { waitUntil: 'domcontentloaded' });
    await session.asked;
    await page.keyboard.press('Control+KeyK');
    await page.keyboard.type('xyl');
    expect(await page.getByRole('heading', { name: MSG.notifications.title }).count()).toBe(0);
    session.release();
    await expectOpenedWith(page, 'xyl', 3);
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'hidden' });
    await page.close();
  });

  it('Ctrl+K pressed right after navigation, with the search code still on its way, opens it once the code arrives', async () => {
    const page = await newPage(browser, { viewport: { width: 1280, height: 800 } });
    await logIn(page, server.url, ADA);
    const chunk = await hold(page, '**/assets/search-dialog-*.js');
    await page.goto(`${server.url}/notifications`, { waitUntil: 'domcontentloaded' });
    await page.keyboard.press('Control+KeyK');
    await page.keyboard.type('xylo');
    await page.keyboard.press('Backspace');
    await page.getByRole('heading', { name: MSG.notifications.title }).waitFor();
    await chunk.asked;
    expect(await dialog(page).count()).toBe(0);
    chunk.release();
    await expectOpenedWith(page, 'xyl', 3);
    await page.close();
  });

  it('Ctrl+K on the way to the log-in page keeps nothing: the log-in form takes what is typed there', async () => {
    const page = await newPage(browser, { viewport: { width: 1280, height: 800 } });
    await page.goto(`${server.url}/friends`, { waitUntil: 'domcontentloaded' });
    await page.keyboard.press('Control+KeyK');
    await page.keyboard.type('abc');
    await page.waitForURL((url) => url.pathname === '/login');
    const email = page.getByLabel('Email', { exact: true });
    await email.click();
    await page.keyboard.type(ADA);
    expect(await email.inputValue()).toBe(ADA);
    expect(await dialog(page).count()).toBe(0);
    await page.close();
  });
});
