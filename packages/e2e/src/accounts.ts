import { request, type BrowserContext, type Page } from 'playwright-core';

/**
 * Logs in through the real /login form (for any journey that needs a signed-in student) and waits until the
 * app has left /login. Seeded users of startServer() have the password 'password123'.
 */
export async function logIn(page: Page, serverUrl: string, email: string, password = 'password123'): Promise<void> {
  await page.goto(`${serverUrl}/login`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
  await page.waitForURL((url) => url.pathname !== '/login', { timeout: 30_000 });
}

/** A browser context's cookies and storage, as `newContext({ storageState })` takes them. */
export type SessionState = Awaited<ReturnType<BrowserContext['storageState']>>;

/**
 * A student's session cookie, logged in through the API (POST /api/auth/login) instead of the /login page: for a
 * journey whose subject is not the log-in, `newPage(browser, { storageState: await sessionState(...) })` opens a
 * page that is signed in from its first request, without loading the log-in page and the app twice. Only the
 * cookie: nothing in local storage.
 */
export async function sessionState(serverUrl: string, email: string, password = 'password123'): Promise<SessionState> {
  const api = await request.newContext({ baseURL: serverUrl, extraHTTPHeaders: { origin: serverUrl } });
  try {
    const res = await api.post('/api/auth/login', { data: { email, password } });
    const result = (await res.json()) as { status?: string };
    if (result.status !== 'signedIn')
      throw new Error(`log-in of ${email} failed: ${res.status()} ${JSON.stringify(result)}`);
    return await api.storageState();
  } finally {
    await api.dispose();
  }
}
