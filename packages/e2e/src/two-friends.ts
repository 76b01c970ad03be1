import type { Browser, Page } from 'playwright-core';
import { logIn } from './accounts.ts';
import { launchBrowser, newPage } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';

export interface TwoFriends {
  server: RunningServer;
  browser: Browser;
  ada: Page;
  ben: Page;
}

/**
 * A server where Ada Lovelace (`adaEmail`) and Ben Carter (`benEmail`) are friends, and one Chromium with each of
 * them signed in on a page of their own (`context`: the pages' viewport, locale, time zone).
 */
export async function twoFriendsSignedIn(
  adaEmail: string,
  benEmail: string,
  context: Parameters<typeof newPage>[1] = {},
): Promise<TwoFriends> {
  const [server, browser] = await Promise.all([
    startServer({}, [
      { email: adaEmail, name: 'Ada Lovelace', friends: [benEmail] },
      { email: benEmail, name: 'Ben Carter' },
    ]),
    launchBrowser(),
  ]);
  const [ada, ben] = await Promise.all([newPage(browser, context), newPage(browser, context)]);
  await Promise.all([logIn(ada, server.url, adaEmail), logIn(ben, server.url, benEmail)]);
  return { server, browser, ada, ben };
}
