import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { MSG } from '@studybuddy/shared/messages';
import { expectAccessible } from './browser.ts';
import type { RunningServer } from './server.ts';
import { twoFriendsSignedIn } from './two-friends.ts';

const ADA = 'ada.actions@g.ucla.edu';
const BEN = 'ben.actions@g.ucla.edu';

/** Where the journey leaves its screenshots of the menu, the edit state and the placeholder (SCREENSHOTS=dir). */
const SHOTS = process.env.SCREENSHOTS;

describe('editing and deleting one’s own messages in Chromium (issue 24 point 4)', () => {
  let server: RunningServer;
  let browser: Browser;
  let ada: Page;
  let adaOtherTab: Page;
  let ben: Page;

  beforeAll(async () => {
    ({ server, browser, ada, ben } = await twoFriendsSignedIn(ADA, BEN));
    // A second tab of Ada's browser (same cookies), in the background: Ada works in the first.
    adaOtherTab = await ada.context().newPage();
    await ada.bringToFront();
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const chatWith = (email: string) => `${server.url}/friends?friend=${server.userIds[email]}`;
  const composer = (page: Page) => page.getByRole('textbox', { name: MSG.chat.messageLabel });
  const log = (page: Page) => page.getByRole('log', { name: MSG.chat.historyLabel });
  const bubble = (page: Page, text: string) => log(page).getByTestId('message').filter({ hasText: text });
  const menuButton = (message: Locator) => message.getByRole('button', { name: MSG.chat.messageActions });
  const shot = async (page: Page, name: string) => {
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
  };

  /**
   * axe finishes its run in a blank page of the page's browser context: with Ada's other tab open, her first tab is
   * then in the background (its animations stop) until it is brought to the front again.
   */
  const accessible = async (page: Page) => {
    await expectAccessible(page);
    await page.bringToFront();
  };

  /** Waits for the open menu to finish appearing (axe and screenshots judge it as the student sees it). */
  const menuShown = (page: Page) =>
    expect.poll(() => page.getByRole('menu').evaluate((el) => getComputedStyle(el).opacity)).toBe('1');

  async function send(page: Page, text: string) {
    await composer(page).fill(text);
    await page.keyboard.press('Enter');
    await bubble(page, text).and(page.locator('[data-state="sent"]')).waitFor();
  }

  it('edits a text within the window: marked edited, seen live by the friend and in the sender’s other tab', async () => {
    await Promise.all([ada.goto(chatWith(BEN)), adaOtherTab.goto(chatWith(BEN)), ben.goto(chatWith(ADA))]);
    await log(ada).getByText(MSG.chat.empty).waitFor();
    await send(ada, 'Meet at the library at 5');
    await send(ada, 'This one I will take back');
    for (const page of [ben, adaOtherTab]) await bubble(page, 'This one I will take back').waitFor();

    // The friend's menu of it only reports it.
    await menuButton(bubble(ben, 'Meet at the library at 5')).click();
    await menuShown(ben);
    expect(await ben.getByRole('menuitem').allInnerTexts()).toEqual([MSG.report.reportMessage]);
    await ben.keyboard.press('Escape');

    // The sender's shows on hover, with Reply (issue 30), Edit and Delete.
    const first = bubble(ada, 'Meet at the library at 5');
    await first.hover();
    await menuButton(first).click();
    await menuShown(ada);
    expect(await ada.getByRole('menuitem').allInnerTexts()).toEqual([
      MSG.replies.reply,
      MSG.chat.edit,
      MSG.chat.delete,
    ]);
    await shot(ada, 'menu-1280');
    await accessible(ada);

    // Edited in place: Enter saves.
    await ada.getByRole('menuitem', { name: MSG.chat.edit }).click();
    const editor = ada.getByRole('textbox', { name: MSG.chat.editLabel });
    await expect.poll(() => editor.evaluate((el) => el === document.activeElement)).toBe(true);
    await editor.fill('Meet at the observatory at 5');
    await shot(ada, 'edit-1280');
    await accessible(ada);
    await editor.press('Enter');
    const edited = bubble(ada, 'Meet at the observatory at 5');
    await edited.and(ada.locator('[data-edited]')).waitFor();
    expect(await edited.innerText()).toContain(MSG.chat.edited);
    await editor.waitFor({ state: 'detached' });

    // Live elsewhere, without a reload: the friend and Ada's other tab.
    for (const page of [ben, adaOtherTab]) {
      await bubble(page, 'Meet at the observatory at 5').and(page.locator('[data-edited]')).waitFor();
      expect(await log(page).getByText('Meet at the library at 5').count()).toBe(0);
    }

    // Escape leaves a text as it was.
    await edited.hover();
    await menuButton(edited).click();
    await ada.getByRole('menuitem', { name: MSG.chat.edit }).click();
    await ada.getByRole('textbox', { name: MSG.chat.editLabel }).fill('never saved');
    await ada.keyboard.press('Escape');
    await ada.getByRole('textbox', { name: MSG.chat.editLabel }).waitFor({ state: 'detached' });
    expect(await log(ada).getByText('never saved').count()).toBe(0);
  });

  it('deletes for everyone from the keyboard after asking: "Message deleted" live for the friend and after a reload', async () => {
    const target = bubble(ada, 'This one I will take back');
    // Keyboard only: the menu button takes the focus (and shows while it has it), Enter opens the menu, the arrows
    // move to Delete.
    await ada.mouse.move(0, 0);
    await menuButton(target).focus();
    await expect.poll(() => menuButton(target).evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    await ada.keyboard.press('Enter');
    await ada.getByRole('menuitem', { name: MSG.chat.delete }).waitFor();
    const onDelete = () => ada.evaluate((name) => document.activeElement?.textContent === name, MSG.chat.delete);
    // The menu takes the arrows once it has focused its first item: press until Delete has the focus (it wraps).
    for (let i = 0; i < 8 && !(await onDelete()); i++) await ada.keyboard.press('ArrowDown');
    expect(await onDelete()).toBe(true);
    await ada.keyboard.press('Enter');
    const dialog = ada.getByRole('dialog', { name: MSG.chat.deleteTitle });
    await dialog.getByText(MSG.chat.deleteBody).waitFor();
    await accessible(ada);
    await dialog.getByRole('button', { name: MSG.chat.deleteConfirm }).click();
    await dialog.waitFor({ state: 'detached' });

    for (const page of [ada, ben, adaOtherTab]) {
      const placeholder = log(page).getByTestId('message').and(page.locator('[data-deleted]'));
      await placeholder.getByText(MSG.chat.messageDeleted).waitFor();
      expect(await log(page).getByText('This one I will take back').count()).toBe(0);
    }
    await shot(ada, 'deleted-1280');
    await expectAccessible(ben);
    // Nothing is left to act on in the placeholder.
    const placeholder = log(ada).getByTestId('message').and(ada.locator('[data-deleted]'));
    expect(await menuButton(placeholder).count()).toBe(0);

    await ben.reload();
    await bubble(ben, 'Meet at the observatory at 5').waitFor();
    await log(ben).getByText(MSG.chat.messageDeleted).waitFor();
    expect(await log(ben).getByText('This one I will take back').count()).toBe(0);
  });

  it('on a phone-sized screen: a long press (the context menu) opens the menu; edit and placeholder fit', async () => {
    await ada.setViewportSize({ width: 375, height: 740 });
    await ada.reload();
    await send(ada, 'Phone message with a typo');
    const message = bubble(ada, 'Phone message with a typo');
    await message.locator('.mantine-Paper-root').click({ button: 'right' });
    await menuShown(ada);
    await shot(ada, 'menu-375');
    await accessible(ada);
    await ada.getByRole('menuitem', { name: MSG.chat.edit }).click();
    const editor = ada.getByRole('textbox', { name: MSG.chat.editLabel });
    await editor.fill('Phone message, fixed');
    await shot(ada, 'edit-375');
    await ada.getByRole('button', { name: MSG.chat.saveEdit }).click();
    await bubble(ada, 'Phone message, fixed').and(ada.locator('[data-edited]')).waitFor();
    await bubble(ben, 'Phone message, fixed').and(ben.locator('[data-edited]')).waitFor();
    await log(ada).getByText(MSG.chat.messageDeleted).scrollIntoViewIfNeeded();
    await shot(ada, 'deleted-375');
    // Nothing wider than the screen.
    expect(await ada.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});
