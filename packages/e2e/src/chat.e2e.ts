import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MSG } from '@studybuddy/shared/messages';
import { LIMITS } from '@studybuddy/shared/limits';
import { sessionState, type SessionState } from './accounts.ts';
import { expectAccessible, launchBrowser, newPage } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';

const ADA = 'ada.chat@g.ucla.edu';
const BEN = 'ben.chat@g.ucla.edu';

/** A real 2×2 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVR4nGMwDl1lHLqKAUIBAB+qBMmC1wmnAAAAAElFTkSuQmCC',
  'base64',
);
const SIX_MB = Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

describe('one-to-one chat in Chromium (two students)', () => {
  let server: RunningServer;
  let browser: Browser;
  let ada: Page;
  let ben: Page;
  /** The students' sessions, logged in once (the log-in form is not what these journeys look at). */
  let adaState: SessionState;
  let benState: SessionState;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({}, [
        { email: ADA, name: 'Ada Lovelace', friends: [BEN] },
        { email: BEN, name: 'Ben Carter' },
      ]),
      launchBrowser(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream']),
    ]);
    [adaState, benState] = await Promise.all([sessionState(server.url, ADA), sessionState(server.url, BEN)]);
    [ada, ben] = await Promise.all([
      newPage(browser, { storageState: adaState }),
      newPage(browser, { storageState: benState }),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const chatWith = (email: string) => `${server.url}/friends?friend=${server.userIds[email]}`;
  const composer = (page: Page) => page.getByRole('textbox', { name: MSG.chat.messageLabel });
  const log = (page: Page) => page.getByRole('log', { name: MSG.chat.historyLabel });
  const bubbles = (page: Page) => log(page).getByTestId('message');
  const friendsBadge = (page: Page) =>
    page.getByRole('navigation', { name: 'Main navigation' }).getByTestId('friends-unread-badge');
  const fileInput = (page: Page) => page.locator('input[type="file"]');

  it('A sends text, an image with text (two messages) and a voice message; B sees them live with the badge, opens the chat, the badge drops to zero', async () => {
    await ben.goto(`${server.url}/notifications`);
    await ben.getByRole('heading', { name: MSG.notifications.title }).waitFor();
    expect(await friendsBadge(ben).count()).toBe(0);

    // Messages go over the socket (its send op): while `held` is set, Ada's send frames wait for it.
    let held: Promise<void> | null = null;
    await ada.routeWebSocket('**/api/ws**', (ws) => {
      const server = ws.connectToServer();
      ws.onMessage(async (frame) => {
        if (held && String(frame).includes('"op":"send"')) await held;
        server.send(frame);
      });
    });
    await ada.goto(chatWith(BEN));
    await ada.getByRole('heading', { level: 2, name: 'Ben Carter' }).waitFor();
    await log(ada).getByText(MSG.chat.empty).waitFor();
    await expectAccessible(ada);

    // Text: shown as pending until the server acknowledges it.
    let release!: () => void;
    held = new Promise<void>((r) => (release = r));
    await composer(ada).fill('Hi Ben!');
    await ada.keyboard.press('Enter');
    const first = bubbles(ada).filter({ hasText: 'Hi Ben!' });
    await first.and(ada.locator('[data-state="pending"]')).waitFor();
    expect(await first.getByText(MSG.chat.pending).isVisible()).toBe(true);
    release();
    await first.and(ada.locator('[data-state="sent"]')).waitFor();
    held = null;
    await friendsBadge(ben).and(ben.locator('[data-count="1"]')).waitFor();

    // Image + text: two messages, the image first.
    await fileInput(ada).setInputFiles({ name: 'diagram.png', mimeType: 'image/png', buffer: PNG });
    await ada.getByRole('button', { name: MSG.chat.removeImage }).waitFor();
    await composer(ada).fill('Look at this diagram');
    await ada.getByRole('button', { name: MSG.chat.send }).click();
    await log(ada)
      .getByRole('img', { name: MSG.chat.imageAlt('Ada Lovelace') })
      .waitFor();
    await bubbles(ada).filter({ hasText: 'Look at this diagram' }).and(ada.locator('[data-state="sent"]')).waitFor();

    // Voice: idle → recording with a seconds counter → stop and send.
    await ada.getByRole('button', { name: MSG.chat.record }).click();
    await ada.getByText(MSG.chat.recording(1)).waitFor();
    await ada.getByText(MSG.chat.recording(2)).waitFor();
    await ada.getByRole('button', { name: MSG.chat.stopAndSend }).click();
    const voice = log(ada).getByLabel(MSG.chat.voiceLabel('Ada Lovelace'));
    await voice.waitFor({ state: 'attached' });
    await expect.poll(() => bubbles(ada).last().getAttribute('data-state'), { timeout: 15_000 }).toBe('sent');
    expect(await bubbles(ada).count()).toBe(4);

    // B saw it all arrive without reloading.
    await friendsBadge(ben).and(ben.locator('[data-count="4"]')).waitFor();
    expect(await friendsBadge(ben).innerText()).toContain('4');
    await expectAccessible(ben);

    // Opening the chat shows the messages and drops the badge to zero.
    await ben
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: /Friends/ })
      .click();
    const adaRow = ben.getByTestId('friend-row').filter({ hasText: 'Ada Lovelace' });
    await adaRow.getByTestId('friend-unread-badge').and(ben.locator('[data-count="4"]')).waitFor();
    await adaRow.getByRole('button').first().click();
    await log(ben).getByText('Hi Ben!').waitFor();
    await log(ben).getByText('Look at this diagram').waitFor();
    const image = log(ben).getByRole('img', { name: MSG.chat.imageAlt('Ada Lovelace') });
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(2);
    const audio = log(ben).getByLabel(MSG.chat.voiceLabel('Ada Lovelace'));
    await expect
      .poll(() => audio.evaluate((a: HTMLAudioElement) => (Number.isFinite(a.duration) ? a.duration : 0)), {
        timeout: 10_000,
      })
      .toBeGreaterThan(1);
    // Recorded with MediaRecorder: Opus in WebM, its length written in, far smaller than the 32 KB/s of 16 kHz WAV.
    expect(await audio.getAttribute('src')).toMatch(/\.webm$/);
    const { size, duration } = await audio.evaluate(async (a: HTMLAudioElement) => ({
      size: (await (await fetch(a.src)).blob()).size,
      duration: a.duration,
    }));
    console.log(`voice message: ${size} bytes for ${duration.toFixed(2)} s = ${Math.round(size / duration)} bytes/s`);
    expect(size / duration).toBeLessThan(8_000);
    await friendsBadge(ben).waitFor({ state: 'detached' });
    await adaRow.getByTestId('friend-unread-badge').waitFor({ state: 'detached' });
    await expectAccessible(ben);

    // A sees how far B has read, and that B is typing.
    await bubbles(ada).last().getByText(MSG.chat.seen).waitFor();
    await composer(ben).fill('Thanks');
    await ada.getByText(MSG.chat.typing('Ben Carter')).waitFor();
    await ben.keyboard.press('Enter');
    await log(ada).getByText('Thanks').waitFor();
  });

  it('refuses a 6 MB image and a PDF with the exact texts, in the UI and by the server', async () => {
    await ada.goto(chatWith(BEN));
    await composer(ada).waitFor();
    // The history of the test above is loaded first: counted before it arrived, it grew by itself.
    await bubbles(ada).first().waitFor();
    const before = await bubbles(ada).count();

    await fileInput(ada).setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: SIX_MB });
    await ada.getByRole('alert').filter({ hasText: MSG.chat.imageTooLarge }).waitFor();
    expect(await ada.getByRole('button', { name: MSG.chat.removeImage }).count()).toBe(0);
    await fileInput(ada).setInputFiles({ name: 'notes.pdf', mimeType: 'application/pdf', buffer: PDF });
    await ada.getByRole('alert').filter({ hasText: MSG.chat.invalidImage }).waitFor();
    expect(await ada.getByRole('button', { name: MSG.chat.send }).isDisabled()).toBe(true);
    await expectAccessible(ada);

    const chatId = [server.userIds[ADA]!, server.userIds[BEN]!].sort().join('_');
    const upload = (bytes: number[], type: string) =>
      ada.evaluate(
        async ({ chatId, bytes, type }) => {
          const res = await fetch(`/api/chats/${chatId}/attachments?kind=image`, {
            method: 'POST',
            headers: { 'Content-Type': type },
            body: new Uint8Array(bytes),
          });
          return { status: res.status, message: ((await res.json()) as { error: { message: string } }).error.message };
        },
        { chatId, bytes, type },
      );
    expect(await upload([...PDF], 'application/pdf')).toEqual({ status: 400, message: MSG.chat.invalidImage });
    const big = await ada.evaluate(
      async ({ chatId, png }) => {
        const body = new Uint8Array(6 * 1024 * 1024);
        body.set(png);
        const res = await fetch(`/api/chats/${chatId}/attachments?kind=image`, {
          method: 'POST',
          headers: { 'Content-Type': 'image/png' },
          body,
        });
        return { status: res.status, message: ((await res.json()) as { error: { message: string } }).error.message };
      },
      { chatId, png: [...PNG] },
    );
    expect(big).toEqual({ status: 400, message: MSG.chat.imageTooLarge });
    expect(await bubbles(ada).count()).toBe(before);
  });

  it('sends a message written offline when the connection returns', async () => {
    // Ada on a laptop of her own (its own context to take offline), on the page's own clock: the outbox's retries
    // while offline are run through by the clock instead of waited out.
    const laptop = await newPage(browser, { storageState: adaState });
    await laptop.clock.install();
    await laptop.goto(chatWith(BEN));
    await ben.goto(chatWith(ADA));
    await composer(laptop).waitFor();
    await laptop.context().setOffline(true);
    await composer(laptop).fill('Written on the train');
    await laptop.keyboard.press('Enter');
    const bubble = bubbles(laptop).filter({ hasText: 'Written on the train' });
    await bubble.and(laptop.locator('[data-state="pending"]')).waitFor();
    await laptop.getByText(MSG.chat.offline).waitFor();
    // 15 s offline: every try (at once, then after 1, 2, 4 and 8 s) finds no connection, and the message stays
    // pending instead of failing.
    await laptop.clock.runFor(15_000);
    expect(await bubble.getAttribute('data-state')).toBe('pending');
    await laptop.context().setOffline(false);
    await bubble.and(laptop.locator('[data-state="sent"]')).waitFor({ timeout: 20_000 });
    await log(ben).getByText('Written on the train').waitFor();
    expect(await log(ben).getByText('Written on the train').count()).toBe(1);
    await laptop.close();
  });

  it('falls back to polling every 5 s when the socket cannot open', async () => {
    // Ben's other tab leaves the chat (while it shows it, everything that arrives is read at once).
    await ben.goto(`${server.url}/notifications`);
    const cut = await newPage(browser, { storageState: benState });
    // The page's own clock: a poll round is due within one interval of it however slow this machine is, and a
    // longer interval would not deliver within the waits below.
    await cut.clock.install();
    await cut.routeWebSocket(/\/api\/ws/, (ws) => ws.close());
    await cut.goto(chatWith(ADA));
    await composer(cut).waitFor();
    await log(cut).waitFor();
    await ada.goto(chatWith(BEN));
    await composer(ada).fill('Polling still delivers');
    await ada.keyboard.press('Enter');
    await bubbles(ada).filter({ hasText: 'Polling still delivers' }).and(ada.locator('[data-state="sent"]')).waitFor();
    await cut.clock.runFor(LIMITS.unreadPollMs);
    await log(cut).getByText('Polling still delivers').waitFor({ timeout: 10_000 });
    // Without a socket the student still sends: the message goes over HTTP and the friend gets it live.
    await composer(cut).fill('Sent without a socket');
    await cut.keyboard.press('Enter');
    await bubbles(cut).filter({ hasText: 'Sent without a socket' }).and(cut.locator('[data-state="sent"]')).waitFor();
    await log(ada).getByText('Sent without a socket').waitFor();

    // Away from the chat, the badge follows by polling too.
    await cut.goto(`${server.url}/groups`);
    await cut.getByText(MSG.groups.select).waitFor();
    // Everything so far was read while the chat was open.
    await expect.poll(() => friendsBadge(cut).count()).toBe(0);
    await composer(ada).fill('One more');
    await ada.keyboard.press('Enter');
    await bubbles(ada).filter({ hasText: 'One more' }).and(ada.locator('[data-state="sent"]')).waitFor();
    await cut.clock.runFor(LIMITS.unreadPollMs);
    await friendsBadge(cut).and(cut.locator('[data-count="1"]')).waitFor({ timeout: 10_000 });
    await cut.close();
  });

  it('pages older history in when scrolled to the top, newest at the bottom', async () => {
    const chatId = [server.userIds[ADA]!, server.userIds[BEN]!].sort().join('_');
    await ada.evaluate(async (chatId) => {
      for (let i = 1; i <= 40; i++) {
        await fetch(`/api/chats/${chatId}/messages`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ id: crypto.randomUUID(), type: 'text', content: `history ${i}` }),
        });
      }
    }, chatId);
    await ben.goto(chatWith(ADA));
    await log(ben).getByText('history 40', { exact: true }).waitFor();
    // The newest message is in view at the bottom; the oldest ones are not loaded yet.
    expect(await log(ben).getByText('history 40', { exact: true }).isVisible()).toBe(true);
    expect(await log(ben).getByText('history 1', { exact: true }).count()).toBe(0);
    // Each scroll to the top brings an older page (the list then keeps the reader's place, away from the top).
    while (!(await log(ben).getByText('history 1', { exact: true }).count())) {
      const loaded = await bubbles(ben).count();
      await log(ben).evaluate((el) => el.scrollTo({ top: 0 }));
      await expect.poll(() => bubbles(ben).count(), { timeout: 30_000 }).toBeGreaterThan(loaded);
    }
    const texts = await bubbles(ben).allInnerTexts();
    const order = [1, 2, 39, 40].map((n) => texts.findIndex((t) => t.startsWith(`history ${n}\n`)));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('shows the spec texts when recording or a voice upload fails, and sends on retry', async () => {
    const denied = await newPage(browser, { storageState: benState });
    await denied.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
    });
    await denied.goto(chatWith(ADA));
    await denied.getByRole('button', { name: MSG.chat.record }).click();
    await denied.locator('.mantine-Notification-root', { hasText: MSG.chat.micFailed }).waitFor();
    await denied.close();

    await ada.goto(chatWith(BEN));
    await ada.route('**/attachments?kind=voice', (route) =>
      route.fulfill({ status: 400, json: { error: { code: 'bad_request', message: 'refused' } } }),
    );
    await ada.getByRole('button', { name: MSG.chat.record }).click();
    await ada.getByText(MSG.chat.recording(1)).waitFor();
    await ada.getByRole('button', { name: MSG.chat.stopAndSend }).click();
    await ada.locator('.mantine-Notification-root', { hasText: MSG.chat.voiceUploadFailed }).waitFor();
    const failed = bubbles(ada).last();
    await failed.and(ada.locator('[data-state="failed"]')).waitFor();
    await ada.unroute('**/attachments?kind=voice');
    await failed.getByRole('button', { name: MSG.chat.retry }).click();
    await expect.poll(() => bubbles(ada).last().getAttribute('data-state'), { timeout: 15_000 }).toBe('sent');
  });

  it('at 375 px the chat has a back button to the friends list', async () => {
    const phone = await newPage(browser, { viewport: { width: 375, height: 740 }, storageState: benState });
    await phone.goto(chatWith(ADA));
    await log(phone).getByText('history 40', { exact: true }).waitFor();
    await expectAccessible(phone);
    await phone.getByRole('button', { name: MSG.friends.back }).click();
    await phone.getByTestId('friend-row').filter({ hasText: 'Ada Lovelace' }).waitFor();
    expect(await log(phone).count()).toBe(0);
    await phone.close();
  });
});
