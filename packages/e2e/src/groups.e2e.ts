import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MSG } from '@studybuddy/shared/messages';
import { logIn } from './profile-helpers.ts';
import { expectAccessible, launchBrowser, newPage } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';
import { transitionsEnded } from './transitions.ts';

const ADA = 'ada.groups@g.ucla.edu';
const BEN = 'ben.groups@g.ucla.edu';
const CAL = 'cal.groups@g.ucla.edu';
const DEE = 'dee.groups@g.ucla.edu';
const EVE = 'eve.groups@g.ucla.edu';

describe('groups and hot groups in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let ada: Page;
  let ben: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({}, [
        // Both imported the course from Canvas (hot groups are its students' only); Ada's coursework names the item.
        {
          email: ADA,
          name: 'Ada Lovelace',
          friends: [BEN, CAL],
          coursework: [
            { courseId: '1102', courseName: 'CS 1102', items: [{ id: 'assignment_55', name: 'Problem Set 4' }] },
          ],
        },
        { email: BEN, name: 'Ben Carter', friends: [DEE] },
        { email: CAL, name: 'Cal Diaz' },
        { email: DEE, name: 'Dee Evans' },
        {
          email: EVE,
          name: 'Eve Fischer',
          coursework: [{ courseId: '1102', courseName: 'CS 1102', items: [] }],
        },
      ]),
      launchBrowser(),
    ]);
    [ada, ben] = await Promise.all([newPage(browser), newPage(browser)]);
    await Promise.all([logIn(ada, server.url, ADA), logIn(ben, server.url, BEN)]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const groupRow = (page: Page, name: string) => page.getByTestId('group-row').filter({ hasText: name });
  const toast = (page: Page, text: string) => page.locator('.mantine-Notification-root', { hasText: text });
  /** Modals fade in; the accessibility check must see them at full opacity. */
  const settledAccessible = async (page: Page) => {
    await transitionsEnded(page);
    await expectAccessible(page);
  };
  const chatTitle = (page: Page, name: string) => page.getByRole('heading', { level: 2, name });
  const memberCount = (page: Page, n: number) =>
    page
      .getByTestId('conversation-subtitle')
      .filter({ hasText: MSG.groups.memberCount(n) })
      .waitFor();

  it('creates a group (blank name refused), shows the Admin badge, adds a friend, refuses a non-member, leaves', async () => {
    await ben.goto(`${server.url}/groups`);
    await ben.getByText(MSG.groups.emptyGroups).waitFor();

    await ada.goto(`${server.url}/groups`);
    await ada.getByRole('button', { name: MSG.groups.createGroup }).click();
    const dialog = ada.getByRole('dialog', { name: MSG.groups.createGroup });
    await dialog.getByRole('button', { name: MSG.groups.create, exact: true }).click();
    await dialog.getByText(MSG.groups.nameRequired).waitFor();
    expect(await dialog.getByText(MSG.groups.selectFriend).isVisible()).toBe(true);
    await dialog.getByLabel(MSG.groups.groupName).fill('   ');
    await dialog.getByLabel('Ben Carter').check();
    await dialog.getByRole('button', { name: MSG.groups.create, exact: true }).click();
    await dialog.getByText(MSG.groups.nameRequired).waitFor();
    expect(await dialog.getByText(MSG.groups.selectFriend).count()).toBe(0);
    await settledAccessible(ada);
    await dialog.getByLabel(MSG.groups.groupName).fill('Algorithms');
    await dialog.getByRole('button', { name: MSG.groups.create, exact: true }).click();
    await chatTitle(ada, 'Algorithms').waitFor();
    await memberCount(ada, 2);
    await ada.getByRole('textbox', { name: MSG.chat.messageLabel }).fill('Welcome to the group!');
    await ada.keyboard.press('Enter');

    // Ben sees the new group and its message without reloading.
    await groupRow(ben, 'Algorithms').waitFor();
    await groupRow(ben, 'Algorithms').getByText('Welcome to the group!').waitFor();
    await groupRow(ben, 'Algorithms').getByRole('button').click();
    await ben.getByRole('log').getByText('Welcome to the group!').waitFor();
    await expectAccessible(ben);

    // Members: the creator has the Admin badge.
    await ada.getByRole('button', { name: MSG.groups.members }).click();
    const members = ada.getByRole('dialog', { name: MSG.groups.members });
    await members.getByTestId('group-member').first().waitFor();
    expect(await members.getByTestId('group-member').allInnerTexts()).toEqual([
      expect.stringMatching(/Ada Lovelace\s+Admin/),
      'Ben Carter',
    ]);
    await settledAccessible(ada);
    await ada.keyboard.press('Escape');

    // Add Members lists only Ada's friends who are not in yet.
    await ada.getByRole('button', { name: MSG.groups.addMembers }).click();
    const add = ada.getByRole('dialog', { name: MSG.groups.addMembers });
    await add.getByRole('button', { name: MSG.groups.add, exact: true }).click();
    await add.getByText(MSG.groups.selectFriend).waitFor();
    expect(await add.getByLabel('Ben Carter').count()).toBe(0);
    await add.getByLabel('Cal Diaz').check();
    await add.getByRole('button', { name: MSG.groups.add, exact: true }).click();
    await toast(ada, MSG.groups.added).waitFor();
    await memberCount(ada, 3);
    await memberCount(ben, 3);

    // A second tab of Ben's that has not heard anything since (its socket is cut off) still shows the group.
    const stale = await ben.context().newPage();
    await stale.routeWebSocket(/\/api\/ws/, () => {
      // accepted, never connected to the server
    });
    await stale.goto(ben.url());
    await chatTitle(stale, 'Algorithms').waitFor();
    await stale.getByRole('button', { name: MSG.groups.addMembers }).click();
    await stale.getByRole('dialog', { name: MSG.groups.addMembers }).getByLabel('Dee Evans').check();

    // Ben leaves, after the confirmation.
    await ben.getByRole('button', { name: MSG.groups.leave }).click();
    const confirm = ben.getByRole('dialog', { name: MSG.groups.leave });
    await confirm.getByText(MSG.groups.leaveConfirm).waitFor();
    await settledAccessible(ben);
    await confirm.getByRole('button', { name: MSG.groups.leave }).click();
    await ben.getByText(MSG.groups.select).waitFor();
    await ben.getByText(MSG.groups.emptyGroups).waitFor();
    expect(await groupRow(ben, 'Algorithms').count()).toBe(0);

    // Now a non-member, the stale tab's add is refused with the exact text.
    await stale
      .getByRole('dialog', { name: MSG.groups.addMembers })
      .getByRole('button', { name: MSG.groups.add, exact: true })
      .click();
    await toast(stale, MSG.groups.addFailed(MSG.groups.notAuthorized)).waitFor();
    await stale.close();

    await memberCount(ada, 2);
    await ada.getByRole('button', { name: MSG.groups.members }).click();
    expect(
      await ada.getByRole('dialog', { name: MSG.groups.members }).getByTestId('group-member').allInnerTexts(),
    ).toEqual([expect.stringMatching(/Ada Lovelace\s+Admin/), 'Cal Diaz']);
    await ada.keyboard.press('Escape');
  });

  it('opens a hot group from a coursework item: the first open creates it, a second user joins, groupIdToOpen opens it', async () => {
    const eve = await newPage(browser);
    await logIn(eve, server.url, EVE);
    const openHotGroup = (page: Page) =>
      page.evaluate(async () => {
        // What the coursework card's flame button sends.
        const res = await fetch('/api/hot-groups', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ courseId: '1102', itemId: 'assignment_55', name: 'Problem Set 4' }),
        });
        return { status: res.status, body: (await res.json()) as { id: string; created: boolean } };
      });

    // Not a member yet: the link opens nothing.
    await eve.goto(`${server.url}/groups?groupIdToOpen=1102_assignment_55`);
    await eve.getByText(MSG.groups.select).waitFor();
    await eve.waitForURL((u) => !u.searchParams.has('groupIdToOpen'));

    expect(await openHotGroup(ada)).toEqual({ status: 201, body: { id: '1102_assignment_55', created: true } });
    await ada.goto(`${server.url}/groups?groupIdToOpen=1102_assignment_55`);
    await chatTitle(ada, 'Problem Set 4').waitFor();
    expect(await ada.getByRole('radio', { name: MSG.groups.hotGroups }).isChecked()).toBe(true);
    await groupRow(ada, 'Problem Set 4').waitFor();
    await ada.getByRole('textbox', { name: MSG.chat.messageLabel }).fill('Who has started?');
    await ada.keyboard.press('Enter');
    await ada.getByRole('log').getByText('Who has started?').waitFor();
    await expectAccessible(ada);

    expect(await openHotGroup(eve)).toEqual({ status: 200, body: { id: '1102_assignment_55', created: false } });
    await eve.goto(`${server.url}/groups?groupIdToOpen=1102_assignment_55`);
    await chatTitle(eve, 'Problem Set 4').waitFor();
    await eve.getByRole('log').getByText('Who has started?').waitFor();
    await eve.getByRole('button', { name: MSG.groups.members }).click();
    expect(
      await eve.getByRole('dialog', { name: MSG.groups.members }).getByTestId('group-member').allInnerTexts(),
    ).toEqual([expect.stringMatching(/Ada Lovelace\s+Admin/), 'Eve Fischer']);
    await eve.keyboard.press('Escape');
    await eve.getByRole('textbox', { name: MSG.chat.messageLabel }).fill('Me too, page 2');
    await eve.keyboard.press('Enter');
    await ada.getByRole('log').getByText('Me too, page 2').waitFor();
    await eve.close();
  });
});
