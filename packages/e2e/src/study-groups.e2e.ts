import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MSG } from '@studybuddy/shared/messages';
import { STUDY_GROUPS_MSG } from '@studybuddy/shared/messages/study-groups';
import { logIn } from './accounts.ts';
import { expectAccessible, launchBrowser, newPage } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';

const ADA = 'ada.studygroup@g.ucla.edu';
const CLEO = 'cleo.studygroup@g.ucla.edu';
const M = STUDY_GROUPS_MSG.studyGroups;
/** Tuesday 14:00–16:00 in the student's zone (both in Berlin time). */
const TUESDAY_TWO_TO_FOUR = Array.from({ length: 336 }, (_, i) => (i >= 48 + 28 && i < 48 + 32 ? '1' : '0')).join('');

/**
 * Issue 27 part 5 in Chromium: on the match finder Ada finds a study group for her course (a classmate who is not
 * her friend, with their free time in common), invites her to a new group in one step; Cleo accepts the invitation
 * and the group has both. The group chat's header at 1280 and 375 px (secondary actions in a menu on phones).
 */
describe('Find a study group in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let ada: Page;
  let cleo: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({}, [
        { email: ADA, name: 'Ada Lovelace', courses: ['Linear Algebra'] },
        { email: CLEO, name: 'Cleo Classmate', courses: ['Linear Algebra'] },
      ]),
      launchBrowser(),
    ]);
    const context = { viewport: { width: 1280, height: 900 }, locale: 'en-GB', timezoneId: 'Europe/Berlin' };
    [ada, cleo] = await Promise.all([newPage(browser, context), newPage(browser, context)]);
    await Promise.all([logIn(ada, server.url, ADA), logIn(cleo, server.url, CLEO)]);
    for (const page of [ada, cleo]) {
      const saved = await page.request.put(`${server.url}/api/schedule/week`, {
        data: { timeZone: 'Europe/Berlin', cells: TUESDAY_TWO_TO_FOUR },
      });
      expect(saved.status()).toBe(200);
    }
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('proposes a classmate, invites her in one step; she accepts and the group has both', async () => {
    await ada.goto(`${server.url}/matchmaking`);
    const finder = ada.getByRole('region', { name: M.title });
    await finder.getByLabel(M.course).click();
    await ada.getByRole('option', { name: 'Linear Algebra' }).click();
    await finder.getByRole('button', { name: M.find }).click();
    const classmate = finder.getByRole('checkbox', { name: 'Cleo Classmate' });
    await classmate.waitFor();
    expect(await classmate.isChecked()).toBe(true);
    await finder.getByText(MSG.freeTime.together('Tue 14:00–16:00')).waitFor();
    await expectAccessible(ada);
    await shoot(ada, 'study-group-finder-1280');
    await finder.getByRole('button', { name: M.invite(1) }).click();
    await finder
      .getByRole('status')
      .filter({ hasText: M.invited(1) })
      .waitFor();

    // Cleo is invited, not added: the invitation waits on her groups page until she accepts it.
    await cleo.goto(`${server.url}/groups`);
    const invitations = cleo.getByRole('region', { name: M.invitations });
    await invitations.getByText(M.invitationFrom('Ada Lovelace', 'Linear Algebra')).waitFor();
    await expectAccessible(cleo);
    await shoot(cleo, 'group-invitation-1280');
    await invitations.getByRole('button', { name: M.accept }).click();
    await invitations.waitFor({ state: 'detached' });
    await cleo.getByText(MSG.groups.memberCount(2)).first().waitFor();

    const list = (await (await ada.request.get(`${server.url}/api/groups`)).json()) as {
      groups: { id: string; name: string; memberCount: number }[];
    };
    const group = list.groups.find((g) => g.name === M.defaultName('Linear Algebra'))!;
    expect(group.memberCount).toBe(2);
    const detail = (await (await cleo.request.get(`${server.url}/api/groups/${group.id}`)).json()) as {
      members: { name: string }[];
    };
    expect(detail.members.map((m) => m.name).sort()).toEqual(['Ada Lovelace', 'Cleo Classmate']);

    // The group chat's header: every action at 1280; on a phone the name keeps its room, the rest in a menu.
    await ada.goto(`${server.url}/groups?group=${group.id}`);
    const more = ada.getByRole('button', { name: STUDY_GROUPS_MSG.groupHeader.more });
    await ada.getByRole('button', { name: MSG.groups.leave }).waitFor();
    expect(await more.isVisible()).toBe(false);
    await shoot(ada, 'group-chat-1280');
    await ada.setViewportSize({ width: 375, height: 800 });
    await more.waitFor();
    expect(await ada.getByRole('button', { name: MSG.groups.leave }).isVisible()).toBe(false);
    await shoot(ada, 'group-chat-375');
    await more.click();
    await ada.getByRole('menuitem', { name: MSG.groups.members }).click();
    await ada.getByRole('dialog').getByText('Cleo Classmate').waitFor();
    await expectAccessible(ada);
    await ada.keyboard.press('Escape');

    // The finder on a phone: the course, the button and the classmates stack in the width.
    await ada.goto(`${server.url}/matchmaking`);
    const phoneFinder = ada.getByRole('region', { name: M.title });
    // The match card above loads first (it would move the finder while its list is open).
    await ada.getByRole('heading', { name: 'Cleo Classmate' }).waitFor();
    await phoneFinder.getByLabel(M.course).click();
    await ada.getByRole('option', { name: 'Linear Algebra' }).click();
    await phoneFinder.getByRole('button', { name: M.find }).click();
    await phoneFinder.getByRole('checkbox', { name: 'Cleo Classmate' }).waitFor();
    expect(await ada.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shoot(ada, 'study-group-finder-375');
  }, 120_000);
});

/** Screenshots when STUDY_GROUP_SCREENSHOTS names a folder. */
async function shoot(page: Page, name: string) {
  const dir = process.env.STUDY_GROUP_SCREENSHOTS;
  if (!dir) return;
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}
