import type { Page } from 'playwright-core';

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
