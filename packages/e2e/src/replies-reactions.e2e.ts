import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { chatIdFor } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import { logIn } from './accounts.ts';
import { expectAccessible, newPage } from './browser.ts';
import type { RunningServer } from './server.ts';
import { twoFriendsSignedIn } from './two-friends.ts';

const ADA = 'ada.replies@g.ucla.edu';
const BEN = 'ben.replies@g.ucla.edu';
/** An old message of Ben's, far above the newest page of the chat (a page is 30 messages). */
const OLD = 'Do you still have the lecture notes from week one?';
const FILLERS = 70;
/** Where REPLY_SCREENSHOTS puts the journey's pictures (1280 and 375 wide). */
const SHOTS = process.env.REPLY_SCREENSHOTS;

describe('replies and reactions in Chromium (issue 30 points 1 and 2)', () => {
  let server: RunningServer;
  let browser: Browser;
  let ada: Page;
  let adaOtherTab: Page;
  let ben: Page;

  beforeAll(async () => {
    ({ server, browser, ada, ben } = await twoFriendsSignedIn(ADA, BEN, { viewport: { width: 1280, height: 800 } }));
    // Ben's old question, many messages, then (near the end) his own reply to it: the newest page does not hold it.
    const chat = chatIdFor(server.userIds[ADA]!, server.userIds[BEN]!);
    const send = async (page: Page, content: string, replyTo?: string) => {
      const id = randomUUID();
      const res = await page.request.post(`${server.url}/api/chats/${chat}/messages`, {
        data: { id, type: 'text', content, ...(replyTo ? { replyTo } : {}) },
      });
      expect(res.status()).toBe(201);
      return id;
    };
    const old = await send(ben, OLD);
    for (let i = 0; i < FILLERS; i++) await send(i % 2 ? ada : ben, `Filler message number ${i}`);
    await send(ben, 'Asking again, see above', old);
    await send(ada, 'Catching up on everything now');
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
  /** The message whose own text this is (not a reply quoting it). */
  const bubble = (page: Page, text: string) =>
    log(page)
      .getByTestId('message')
      .filter({ has: page.getByText(text, { exact: true }) })
      .filter({ hasNot: page.getByTestId('reply-quote').getByText(text, { exact: true }) });
  const chip = (message: Locator, emoji: string) => message.getByTestId('reactions').locator(`[data-emoji="${emoji}"]`);
  const shot = async (page: Page, name: string) => {
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
  };
  /** Waits for a popover to finish appearing (axe and screenshots judge it as the student sees it). */
  const shown = (popover: Locator) =>
    expect.poll(() => popover.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
  const accessible = async (page: Page) => {
    await expectAccessible(page);
    await page.bringToFront();
  };

  it('a quote jumps to an old message that is not loaded, loading the history around it', async () => {
    await ada.goto(chatWith(BEN));
    const reply = bubble(ada, 'Asking again, see above');
    await reply.waitFor();
    // The original is not on screen: only its quote is.
    expect(await bubble(ada, OLD).count()).toBe(0);
    const quote = reply.getByTestId('reply-quote');
    await quote.getByText(OLD).waitFor();
    await quote.getByText('Ben Carter').waitFor();
    await quote.click();
    const original = bubble(ada, OLD);
    await original.and(ada.locator('[data-found="true"]')).waitFor();
    await expect.poll(() => original.evaluate((el) => el === document.activeElement)).toBe(true);
    await expect
      .poll(() =>
        original.evaluate((el) => {
          const box = el.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        }),
      )
      .toBe(true);
  });

  it('Reply on hover: the composer shows what is answered, the reply carries the quote live to the friend', async () => {
    await Promise.all([ada.goto(chatWith(BEN)), ben.goto(chatWith(ADA))]);
    const theirs = bubble(ada, 'Asking again, see above');
    await theirs.waitFor();
    await theirs.hover();
    await theirs.getByRole('button', { name: MSG.replies.replyTo('Ben Carter') }).click();
    const bar = ada.getByTestId('reply-bar');
    await bar.getByText(MSG.replies.replyingTo('Ben Carter')).waitFor();
    await expect.poll(() => composer(ada).evaluate((el) => el === document.activeElement)).toBe(true);
    await shot(ada, 'reply-composer-1280');
    await accessible(ada);
    // Escape leaves a plain message; Reply again, then send.
    await composer(ada).press('Escape');
    await bar.waitFor({ state: 'detached' });
    await theirs.hover();
    await theirs.getByRole('button', { name: MSG.replies.replyTo('Ben Carter') }).click();
    await composer(ada).fill('Yes, I will bring them on Monday');
    await composer(ada).press('Enter');
    await bar.waitFor({ state: 'detached' });
    for (const page of [ada, ben]) {
      const sent = bubble(page, 'Yes, I will bring them on Monday');
      await sent.and(page.locator('[data-state="sent"]')).waitFor();
      await sent.getByTestId('reply-quote').getByText('Asking again, see above').waitFor();
    }
    await shot(ada, 'reply-sent-1280');

    // The friend deletes the message answered: the quote says so at once, and after a reload.
    const benOwn = bubble(ben, 'Asking again, see above');
    await benOwn.hover();
    await benOwn.getByRole('button', { name: MSG.chat.messageActions }).click();
    await ben.getByRole('menuitem', { name: MSG.chat.delete }).click();
    await ben.getByRole('button', { name: MSG.chat.deleteConfirm }).click();
    const quote = bubble(ada, 'Yes, I will bring them on Monday').getByTestId('reply-quote');
    await quote.getByText(MSG.replies.deleted).waitFor();
    await ada.reload();
    await bubble(ada, 'Yes, I will bring them on Monday')
      .getByTestId('reply-quote')
      .getByText(MSG.replies.deleted)
      .waitFor();
  });

  it('reactions: picked from the bar or the picker, counted with who on hover, live in every tab, taken back', async () => {
    await Promise.all([ada.goto(chatWith(BEN)), adaOtherTab.goto(chatWith(BEN)), ben.goto(chatWith(ADA))]);
    const target = 'Catching up on everything now';
    for (const page of [ada, adaOtherTab, ben]) await bubble(page, target).waitFor();
    // Ben reacts to Ada's message from the React button (shown on hover).
    const onBen = bubble(ben, target);
    await onBen.hover();
    await onBen.getByRole('button', { name: MSG.reactions.addReaction }).click();
    const picker = ben.getByRole('dialog', { name: MSG.reactions.pickerTitle });
    await shown(picker);
    await shot(ben, 'reactions-picker-1280');
    await accessible(ben);
    await picker.getByRole('button', { name: MSG.reactions.reactWith('👍') }).click();
    await picker.waitFor({ state: 'detached' });
    // Live in both of Ada's tabs (the other one in the background), with the count.
    for (const page of [ada, adaOtherTab, ben]) {
      await chip(bubble(page, target), '👍').and(page.locator('[data-count="1"]')).waitFor();
    }
    // Who reacted, on hover and on keyboard focus.
    await chip(bubble(ada, target), '👍').hover();
    await ada
      .getByRole('tooltip')
      .getByText(MSG.reactions.who('👍', ['Ben Carter']))
      .waitFor();
    // From the keyboard: onto the chip with Tab.
    await chip(bubble(ben, target), '👍').focus();
    await ben.keyboard.press('Shift+Tab');
    await ben.keyboard.press('Tab');
    await expect.poll(() => chip(bubble(ben, target), '👍').evaluate((el) => el === document.activeElement)).toBe(true);
    await ben
      .getByRole('tooltip')
      .getByText(MSG.reactions.who('👍', [MSG.reactions.you]))
      .waitFor();

    // Ada adds hers by clicking the chip: two; then one from the picker's More.
    await chip(bubble(ada, target), '👍').click();
    for (const page of [adaOtherTab, ben]) {
      await chip(bubble(page, target), '👍').and(page.locator('[data-count="2"]')).waitFor();
    }
    expect(await chip(bubble(ada, target), '👍').getAttribute('aria-pressed')).toBe('true');
    await bubble(ada, target).hover();
    await bubble(ada, target).getByRole('button', { name: MSG.reactions.addReaction }).click();
    const adaPicker = ada.getByRole('dialog', { name: MSG.reactions.pickerTitle });
    await adaPicker.getByRole('button', { name: MSG.reactions.moreReactions }).click();
    await adaPicker.getByRole('button', { name: MSG.reactions.reactWith('🎉') }).click();
    await chip(bubble(ben, target), '🎉').and(ben.locator('[data-count="1"]')).waitFor();
    await shot(ada, 'reactions-1280');

    // Clicking again takes it back, everywhere.
    await chip(bubble(ben, target), '👍').click();
    for (const page of [ada, adaOtherTab, ben]) {
      await chip(bubble(page, target), '👍').and(page.locator('[data-count="1"]')).waitFor();
    }
    expect(await chip(bubble(ben, target), '👍').getAttribute('aria-pressed')).toBe('false');
  });

  it('on a phone-sized screen: the actions are shown, the picker and a reply fit', async () => {
    const phone = await newPage(browser, { viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });
    await logIn(phone, server.url, BEN);
    await phone.goto(chatWith(ADA));
    const target = bubble(phone, 'Catching up on everything now');
    await target.waitFor();
    await chip(target, '🎉').waitFor();
    const react = target.getByRole('button', { name: MSG.reactions.addReaction });
    await expect.poll(() => react.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    await react.click();
    const picker = phone.getByRole('dialog', { name: MSG.reactions.pickerTitle });
    await shown(picker);
    await picker.getByRole('button', { name: MSG.reactions.moreReactions }).click();
    const box = await picker.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    await shot(phone, 'reactions-picker-375');
    await picker.getByRole('button', { name: MSG.replies.reply }).click();
    await phone.getByTestId('reply-bar').getByText(MSG.replies.replyingTo('Ada Lovelace')).waitFor();
    await picker.waitFor({ state: 'detached' });
    await shot(phone, 'reply-composer-375');
    await composer(phone).fill('Great, see you there');
    await composer(phone).press('Enter');
    await bubble(phone, 'Great, see you there').getByTestId('reply-quote').waitFor();
    await shot(phone, 'reply-sent-375');
    await phone.close();
  });
});
