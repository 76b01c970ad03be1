import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { MSG } from '@studybuddy/shared/messages';
import { expectAccessible, launchBrowser, newPage } from './browser.ts';
import { chooseFiles, logIn } from './profile-helpers.ts';
import { COURSE_TEXT } from '../../server/src/features/flashcards/flashcards.test-kit.ts';
import { startServer, type RunningServer } from './server.ts';

const OWNER = 'cards-owner@g.ucla.edu';
const MEMBER = 'cards-member@g.ucla.edu';
const COURSE = 'BIO 101';
const T = MSG.flashcards;

// Key terms, dates, numbers and names: the cards and the quiz come from these sentences (the server tests' too).
const NOTES = COURSE_TEXT;

/** Set FLASHCARDS_SCREENSHOTS to a folder for pictures of the screens at 1280 and 375 pixels wide. */
async function shoot(page: Page, name: string): Promise<void> {
  const dir = process.env.FLASHCARDS_SCREENSHOTS;
  if (!dir) return;
  const width = page.viewportSize()!.width;
  await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true });
}

/**
 * Waits for the shell's layout at the page's width: on a phone (768 px and below) the navigation has slid off the
 * screen, on a wider page it stands beside the content.
 */
async function laidOut(page: Page, phone: boolean): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect.poll(() => nav.evaluate((el) => el.getBoundingClientRect().right > 0)).toBe(!phone);
}

/**
 * Axe (it waits for transitions to settle) in both colour schemes at this width, then in the shown scheme on a
 * phone (the colours are the wide screen's; the phone layout is judged in full), and the pictures at both widths.
 */
async function checkScreen(page: Page, name: string): Promise<void> {
  await expectAccessible(page);
  await shoot(page, name);
  const wide = page.viewportSize()!;
  await page.setViewportSize({ width: 375, height: 800 });
  await laidOut(page, true);
  await expectAccessible(page, { otherScheme: false });
  await shoot(page, name);
  await page.setViewportSize(wide);
  await laidOut(page, false);
}

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

const dueBadge = (page: Page) =>
  page.getByRole('navigation', { name: 'Main navigation' }).getByTestId('flashcards-due');

async function reviewWithKeys(page: Page, key: string, times: number, total: number) {
  for (let i = 0; i < times; i++) {
    await page.getByText(T.cardOf(i + 1, total)).waitFor();
    await page.keyboard.press('Space');
    await page.getByTestId('card-back').waitFor();
    await page.keyboard.press(key);
    if (i + 1 < total) await page.getByText(T.cardOf(i + 2, total)).waitFor();
  }
}

describe('Flashcards in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ RATE_LIMITS: 'false' }, [
        { email: OWNER, name: 'Owen Cards', courses: [COURSE], friends: [MEMBER] },
        { email: MEMBER, name: 'Mia Member', courses: [COURSE] },
      ]),
      launchBrowser(),
    ]);
    // Seeding and starting the built server took 117 s at load 32 on two cores (measured): past the 180 s default.
  }, 420_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('makes flashcards from a document, reviews them, shares the deck with a group whose member has their own schedule, and takes a quiz', async () => {
    const page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
    await logIn(page, server.url, OWNER);
    const group = await page.request.post(`${server.url}/api/groups`, {
      data: { name: 'Bio study', memberIds: [server.userIds[MEMBER]] },
    });
    expect(group.ok()).toBe(true);

    // Upload a document on the Courses page and wait for it to be read.
    await page.goto(`${server.url}/courses`);
    await page.getByRole('button', { name: COURSE }).click();
    await chooseFiles(page, MSG.courses.uploadDocument, [
      { name: 'cell notes.txt', mimeType: 'text/plain', buffer: Buffer.from(NOTES) },
    ]);
    const status = page.getByTestId('document-panel').getByTestId('document-status');
    await status.getByText(`${MSG.courses.statusLabel}: ${MSG.courses.status.done}`).waitFor({ timeout: 120_000 });

    // Make flashcards from it.
    await page.goto(`${server.url}/flashcards`);
    await page.getByRole('heading', { name: T.title, level: 1 }).waitFor();
    await page.getByText(T.noDecks).waitFor();
    await checkScreen(page, 'flashcards-empty');
    await choose(page, T.course, COURSE);
    await choose(page, T.document, 'cell notes.txt');
    await page.getByRole('button', { name: T.generate }).click();
    await page.getByRole('heading', { name: T.deckFromDocument('cell notes.txt') }).waitFor({ timeout: 60_000 });
    const cards = page.getByTestId('card');
    await cards.first().waitFor();
    const total = await cards.count();
    expect(total).toBeGreaterThanOrEqual(8);
    expect(await page.getByText('Photosynthesis', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => dueBadge(page).innerText()).toBe(String(total));
    await checkScreen(page, 'flashcards-deck');

    // Review three with the keyboard: Good on a new card brings it back in minutes, so three fewer are due.
    await page.getByRole('button', { name: T.study, exact: true }).click();
    await page.getByTestId('study-card').waitFor();
    await checkScreen(page, 'flashcards-study');
    await reviewWithKeys(page, '3', 3, total);
    await expect.poll(() => dueBadge(page).innerText()).toBe(String(total - 3));

    // Share the deck with the group.
    await page.getByRole('button', { name: T.backToDecks }).click();
    await page
      .getByTestId('own-decks')
      .getByRole('button', { name: /^Open / })
      .click();
    await choose(page, T.group, 'Bio study');
    await page.getByRole('button', { name: T.share, exact: true }).click();
    await page.getByRole('button', { name: T.unshare('Bio study') }).waitFor();
    await checkScreen(page, 'flashcards-shared');

    // The member sees it with every card due for them (their own schedule), and reviews one.
    const member = await newPage(browser, { viewport: { width: 1280, height: 900 } });
    await logIn(member, server.url, MEMBER);
    await member.goto(`${server.url}/flashcards`);
    const shared = member.getByTestId('shared-decks').getByTestId('deck');
    await shared.waitFor();
    expect(await shared.getByText(T.sharedBy('Owen Cards')).isVisible()).toBe(true);
    expect(await shared.getByTestId('deck-due').textContent()).toBe(T.dueCount(total));
    await checkScreen(member, 'flashcards-member');
    await shared.getByRole('button', { name: T.studyDeck(T.deckFromDocument('cell notes.txt')) }).click();
    await reviewWithKeys(member, '1', 1, total);
    await expect.poll(() => dueBadge(member).innerText()).toBe(String(total - 1));
    await page.reload();
    await expect.poll(() => dueBadge(page).innerText()).toBe(String(total - 3));

    // A five-question quiz: score at the end, each wrong answer with its page.
    await page.goto(`${server.url}/flashcards?tab=quiz`);
    await choose(page, T.course, COURSE);
    await choose(page, T.document, 'cell notes.txt');
    await page.getByRole('button', { name: T.startQuiz }).click();
    for (let i = 1; i <= 5; i++) {
      const question = page.getByTestId('quiz-question');
      await question.getByText(T.questionOf(i, 5), { exact: false }).waitFor();
      if (i === 1) await checkScreen(page, 'flashcards-quiz');
      const radios = question.getByRole('radio');
      if (await radios.count()) await radios.first().check();
      else await question.getByRole('textbox', { name: T.yourAnswer }).fill('not this');
      await question.getByRole('button', { name: i === 5 ? T.finish : T.next }).click();
    }
    const score = page.getByTestId('quiz-score');
    await score.waitFor();
    expect(await score.getByRole('status').innerText()).toMatch(/^You got [0-5] of 5 right\.$/);
    const wrong = score.locator('[data-testid="quiz-result"][data-correct="false"]');
    expect(await wrong.count()).toBeGreaterThanOrEqual(2);
    expect(
      await wrong
        .first()
        .getByRole('link', { name: T.openPage(1) })
        .isVisible(),
    ).toBe(true);
    await checkScreen(page, 'flashcards-score');
    await member.close();
    await page.close();
  }, 300_000);
});
