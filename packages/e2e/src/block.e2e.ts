import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chatIdFor } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import { logIn } from './accounts.ts';
import { expectAccessible, launchBrowser, newPage, screenshotWidths } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';

const ALICE = 'alice.blocker@g.ucla.edu';
const BOB = 'bob.blocked@g.ucla.edu';
const CAL = 'cal.bystander@g.ucla.edu';
const B = MSG.block;

/**
 * Issue 24 point 1 in Chromium, each side's view. The blocker (Alice) blocks from the chat header and keeps the
 * history read-only; in the group they share she sees Bob's messages folded until she shows one; Profile → Blocked
 * students lists him with Unblock; blocking again from the group's member list takes him out of her suggestions.
 * The blocked student (Bob) sees their chat closed with a plain text, and his friend request from a card he still
 * had open gets the ordinary answer and never reaches Alice. Set BLOCK_SCREENSHOTS to a folder to keep pictures of
 * the block UI at 1280 and 375 pixels wide.
 */
describe('blocking a student, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let alice: Page;
  let bob: Page;
  let groupId: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ RATE_LIMITS: 'false' }, [
        { email: ALICE, name: 'Alice Archer', friends: [BOB, CAL], courses: ['CS 101'] },
        { email: BOB, name: 'Bob Brown', friends: [CAL], courses: ['CS 101'] },
        { email: CAL, name: 'Cal Bystander' },
      ]),
      launchBrowser(),
    ]);
    [alice, bob] = await Promise.all([
      newPage(browser, { viewport: { width: 1280, height: 900 } }),
      newPage(browser, { viewport: { width: 1280, height: 900 } }),
    ]);
    await Promise.all([logIn(alice, server.url, ALICE), logIn(bob, server.url, BOB)]);
    // A group the three share (made while Alice and Bob are friends).
    const made = await alice.request.post(`${server.url}/api/groups`, {
      data: { name: 'Study Hall', memberIds: [server.userIds[BOB], server.userIds[CAL]] },
    });
    expect(made.status()).toBe(201);
    groupId = ((await made.json()) as { id: string }).id;
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const chatWith = (email: string) => `${server.url}/friends?friend=${server.userIds[email]}`;
  const groupUrl = () => `${server.url}/groups?group=${encodeURIComponent(groupId)}`;
  const composer = (page: Page) => page.getByRole('textbox', { name: MSG.chat.messageLabel });
  const history = (page: Page) => page.getByRole('log', { name: MSG.chat.historyLabel });
  const bubbles = (page: Page) => history(page).getByTestId('message');
  const toast = (page: Page, text: string) => page.locator('.mantine-Notification-root', { hasText: text });
  const blockDialog = (page: Page, name: string) => page.getByRole('dialog', { name: B.confirmTitle(name) });

  async function send(page: Page, text: string) {
    await composer(page).fill(text);
    await page.keyboard.press('Enter');
    await bubbles(page).filter({ hasText: text }).and(page.locator('[data-state="sent"]')).waitFor();
  }

  const screenshots = (page: Page, name: string) => screenshotWidths(page, process.env.BLOCK_SCREENSHOTS, name);

  it('the blocker blocks from the chat header and keeps the history read-only; the blocked student’s chat closes with a plain text', async () => {
    await bob.goto(chatWith(ALICE));
    await send(bob, 'Why did you not answer me?');

    // The friends list's menu offers Block too.
    await alice.goto(`${server.url}/friends`);
    await alice.getByRole('button', { name: MSG.friends.options('Bob Brown') }).click();
    await alice.getByRole('menuitem', { name: B.action }).waitFor();
    await screenshots(alice, 'friend-menu');
    await alice.keyboard.press('Escape');

    await alice.goto(chatWith(BOB));
    await bubbles(alice).filter({ hasText: 'Why did you not answer me?' }).waitFor();
    await screenshots(alice, 'chat-header');
    await alice.getByRole('button', { name: B.blockStudent('Bob Brown') }).click();
    const dialog = blockDialog(alice, 'Bob Brown');
    await dialog.getByText(B.confirmBody).waitFor();
    await expectAccessible(alice);
    await screenshots(alice, 'block-dialog');
    await dialog.getByRole('button', { name: B.confirm, exact: true }).click();
    await toast(alice, B.blocked('Bob Brown')).waitFor();

    // Alice: the same chat, read-only (the history may be needed for a report), with Unblock in the composer's place.
    await alice.getByTestId('blocked-chat-notice').getByText(B.readOnly('Bob Brown')).waitFor();
    await bubbles(alice).filter({ hasText: 'Why did you not answer me?' }).waitFor();
    expect(await composer(alice).count()).toBe(0);
    expect(await alice.getByTestId('friend-row').filter({ hasText: 'Bob Brown' }).count()).toBe(0);
    await expectAccessible(alice);
    await screenshots(alice, 'read-only-chat');

    // Bob: his open chat closes at once and says only that it is closed; Alice has left his friends.
    await bob.getByTestId('chat-closed').getByText(MSG.chatClosed.title).waitFor();
    await bob.getByTestId('chat-closed').getByText(MSG.chatClosed.body).waitFor();
    expect(await bob.getByText(/blocked/i).count()).toBe(0);
    expect(await bob.getByTestId('friend-row').filter({ hasText: 'Alice Archer' }).count()).toBe(0);
    await expectAccessible(bob);
    await screenshots(bob, 'chat-closed');
    // Opened again later, the chat is still closed, and the server refuses any message.
    await bob.goto(chatWith(ALICE));
    await bob.getByTestId('chat-closed').waitFor();
    const refused = await bob.request.post(
      `${server.url}/api/chats/${encodeURIComponent(chatIdFor(server.userIds[ALICE]!, server.userIds[BOB]!))}/messages`,
      { data: { id: randomUUID(), type: 'text', content: 'let me in' } },
    );
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(MSG.chat.notFriends);
  });

  it('in the group they share, the blocker sees the blocked student’s messages folded (no unread), and can show one', async () => {
    await bob.goto(groupUrl());
    await send(bob, 'Notes from Bob: chapter 3');
    await alice.goto(groupUrl());
    await send(alice, 'Hello everyone');
    const folded = history(alice).getByTestId('folded-message');
    await folded.getByText(B.folded).waitFor();
    expect(await history(alice).getByText('Notes from Bob: chapter 3').count()).toBe(0);
    // The group's row counts nothing of his as unread and previews it folded too.
    const row = alice.getByTestId('group-row').filter({ hasText: 'Study Hall' });
    await row.getByText(B.folded).or(row.getByText('Hello everyone')).first().waitFor();
    expect(await row.locator('[data-count]').count()).toBe(0);
    await expectAccessible(alice);
    await screenshots(alice, 'folded-message');
    await folded.getByRole('button', { name: B.showMessage }).click();
    await history(alice).getByText('Notes from Bob: chapter 3').waitFor();

    // Bob's side of the group is as before: Alice's messages arrive, unfolded.
    await bubbles(bob).filter({ hasText: 'Hello everyone' }).waitFor();
    expect(await history(bob).getByTestId('folded-message').count()).toBe(0);

    // The member list marks Bob as blocked; anyone else can be blocked from there.
    await alice.getByRole('button', { name: MSG.groups.members }).click();
    const members = alice.getByRole('dialog', { name: MSG.groups.members });
    await members.getByTestId('group-member').filter({ hasText: 'Bob Brown' }).getByText(B.blockedBadge).waitFor();
    await members.getByRole('button', { name: B.blockStudent('Cal Bystander') }).waitFor();
    await expectAccessible(alice);
    await screenshots(alice, 'members-list');
    await alice.keyboard.press('Escape');
    await members.waitFor({ state: 'hidden' });
  });

  it('Profile → Blocked students lists him with his chat’s history and Unblock', async () => {
    await alice.goto(`${server.url}/profile`);
    const section = alice.getByRole('region', { name: B.listTitle });
    const entry = section.getByTestId('blocked-student').filter({ hasText: 'Bob Brown' });
    await entry.waitFor();
    await expectAccessible(alice);
    await screenshots(alice, 'blocked-list');

    await entry.getByRole('link', { name: B.viewChatOf('Bob Brown') }).click();
    await alice.getByTestId('blocked-chat-notice').waitFor();
    await bubbles(alice).filter({ hasText: 'Why did you not answer me?' }).waitFor();

    await alice.goto(`${server.url}/profile`);
    await entry.getByRole('button', { name: B.unblockStudent('Bob Brown') }).click();
    await toast(alice, B.unblocked('Bob Brown')).waitFor();
    await section.getByText(B.listEmpty).waitFor();
    // Unblocked, they are strangers: the old chat is closed to her too.
    await alice.goto(chatWith(BOB));
    await alice.getByTestId('chat-closed').waitFor();
  });

  it('blocked from the group’s member list, he leaves her suggestions; his request from a card he still had open gets the ordinary answer and never reaches her', async () => {
    // Strangers again, sharing a course: each is the other's suggestion.
    await bob.goto(`${server.url}/matchmaking`);
    const bobsCard = bob.getByTestId('match-candidate').filter({ hasText: 'Alice Archer' });
    await bobsCard.waitFor();
    await alice.goto(`${server.url}/matchmaking`);
    const alicesCard = alice.getByTestId('match-candidate').filter({ hasText: 'Bob Brown' });
    await alicesCard.getByRole('button', { name: B.blockStudent('Bob Brown') }).waitFor();
    await screenshots(alice, 'match-card');

    await alice.goto(groupUrl());
    await alice.getByRole('button', { name: MSG.groups.members }).click();
    const members = alice.getByRole('dialog', { name: MSG.groups.members });
    await members.getByRole('button', { name: B.blockStudent('Bob Brown') }).click();
    const dialog = blockDialog(alice, 'Bob Brown');
    await dialog.waitFor();
    await expectAccessible(alice);
    await screenshots(alice, 'members-block');
    await dialog.getByRole('button', { name: B.confirm, exact: true }).click();
    await toast(alice, B.blocked('Bob Brown')).waitFor();
    await members.getByTestId('group-member').filter({ hasText: 'Bob Brown' }).getByText(B.blockedBadge).waitFor();
    await alice.keyboard.press('Escape');

    // Bob's card of Alice was already on screen: Connect answers as it always does.
    await bobsCard.getByRole('button', { name: MSG.match.connect }).click();
    await toast(bob, MSG.match.sent('Alice Archer')).waitFor();
    // Once it has stopped loading (a loading button's label is faded).
    await bobsCard.getByRole('button', { name: MSG.match.unsend }).and(bob.locator(':not([data-loading])')).waitFor();
    expect(await bob.getByText(/blocked/i).count()).toBe(0);
    // The pointer left on the button would judge its hover colours.
    await bob.mouse.move(0, 0);
    await expectAccessible(bob);

    // Nothing reached Alice, and neither is suggested to the other any more.
    await alice.goto(`${server.url}/notifications`);
    await alice.getByText(MSG.notifications.empty).waitFor();
    await alice.goto(`${server.url}/matchmaking`);
    await alice.getByText(MSG.match.empty).waitFor();
    await bob.goto(`${server.url}/matchmaking`);
    await bob.getByText(MSG.match.empty).waitFor();
  });
});
