import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MSG } from '@studybuddy/shared/messages';
import { expectAccessible, launchBrowser, newPage } from './browser.ts';
import { chooseFiles, logIn, makeImage } from './profile-helpers.ts';
import { startServer, type RunningServer } from './server.ts';

const NEW = 'newcomer@g.ucla.edu';
const IMAGES = 'collector@andrew.cmu.edu';
const LEAVER = 'leaver@wisc.edu';

describe('profile in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ RATE_LIMITS: 'false' }, [
        { email: NEW, complete: false },
        { email: IMAGES, name: 'Col Lector', major: 'Art', year: 'Senior' },
        { email: LEAVER, name: 'Lee Ver' },
      ]),
      launchBrowser(),
    ]);
    // Starting the server and Chromium can take long on a busy machine.
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const alert = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });
  const box = async (page: Page, selector: string) => (await page.locator(selector).boundingBox())!;

  it('a new student completes the profile with a cropped picture; then the shell shows picture and college', async () => {
    const page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
    await logIn(page, server.url, NEW);
    await page.goto(`${server.url}/feedback`);
    await page.waitForURL(/\/profile$/);
    const welcome = page.getByRole('dialog', { name: MSG.profile.welcomeTitle });
    await welcome.waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: MSG.profile.welcomeButton }).click();
    await welcome.waitFor({ state: 'hidden' });
    expect(await page.getByRole('navigation', { name: 'Main navigation' }).count()).toBe(0);
    await expectAccessible(page);

    // Acceptance 2: Cancel is refused, Save shows the exact texts for missing fields and for the default avatar.
    await page.getByRole('button', { name: MSG.profile.cancel }).click();
    await alert(page, MSG.profile.completeFirst).waitFor();
    await page.getByRole('button', { name: MSG.profile.save }).click();
    await alert(page, MSG.profile.requiredFields).waitFor();
    await page.getByLabel(MSG.profile.fields.name).fill('Ada Lovelace');
    await page.getByLabel(MSG.profile.fields.major).fill('Mathematics');
    await page.getByRole('button', { name: MSG.profile.save }).click();
    await alert(page, MSG.profile.requiredFields).waitFor();
    await page.getByRole('combobox', { name: MSG.profile.fields.year }).click();
    await page.getByRole('option', { name: 'Junior' }).click();
    await page.getByRole('button', { name: MSG.profile.save }).click();
    await alert(page, MSG.profile.customPicture).waitFor();
    expect(await page.getByLabel(MSG.profile.fields.college).inputValue()).toBe('UCLA');
    // ...and the server refuses the same payloads with 400 and the same texts.
    const avatar = (await (await page.request.get(`${server.url}/api/profile`)).json()) as { profilePicture: string };
    for (const [data, message] of [
      [
        { name: '', major: 'Mathematics', year: 'Junior', profilePicture: avatar.profilePicture },
        MSG.profile.requiredFields,
      ],
      [
        { name: 'Ada', major: 'Mathematics', year: 'Junior', profilePicture: avatar.profilePicture },
        MSG.profile.customPicture,
      ],
    ] as const) {
      const res = await page.request.put(`${server.url}/api/profile`, { data });
      expect(res.status()).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe(message);
    }

    // The crop tool: drag, resize, keyboard nudge 1 / 10 (Shift) / 100 (Ctrl), zoom 1–3 in 0.1 steps, rotate.
    const photo = await makeImage(page, { width: 900, height: 600, type: 'image/jpeg', seed: 3 });
    await chooseFiles(page, MSG.profile.uploadPicture, [{ name: 'me.jpg', mimeType: 'image/jpeg', buffer: photo }]);
    const dialog = page.getByRole('dialog', { name: MSG.profile.crop.title });
    await dialog.waitFor();
    const selection = '.ReactCrop__crop-selection';
    await page.locator(selection).waitFor();
    await expect.poll(async () => (await box(page, selection)).width).toBeGreaterThan(100);
    const start = await box(page, selection);
    expect(start.width).toBeCloseTo(start.height, 0);
    expect(await page.locator('.ReactCrop--circular-crop').count()).toBe(1);

    await page.locator(selection).focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await box(page, selection)).x - start.x).toBeCloseTo(1, 0);
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(async () => (await box(page, selection)).x - start.x).toBeCloseTo(11, 0);
    await page.keyboard.press('Control+ArrowLeft');
    await expect.poll(async () => (await box(page, selection)).x - start.x).toBeCloseTo(-89, 0);

    const beforeDrag = await box(page, selection);
    await page.mouse.move(beforeDrag.x + beforeDrag.width / 2, beforeDrag.y + beforeDrag.height / 2);
    await page.mouse.down();
    await page.mouse.move(beforeDrag.x + beforeDrag.width / 2 + 40, beforeDrag.y + beforeDrag.height / 2 + 5, {
      steps: 5,
    });
    await page.mouse.up();
    const afterDrag = await box(page, selection);
    expect(afterDrag.x - beforeDrag.x).toBeCloseTo(40, 0);
    expect(afterDrag.width).toBeCloseTo(beforeDrag.width, 0);

    const handle = await box(page, '.ReactCrop__drag-handle.ord-se');
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle.x - 60, handle.y - 60, { steps: 5 });
    await page.mouse.up();
    const resized = await box(page, selection);
    expect(resized.width).toBeLessThan(afterDrag.width - 40);
    expect(resized.width).toBeCloseTo(resized.height, 0);

    const zoom = dialog.getByRole('slider', { name: MSG.profile.crop.zoom });
    expect(await zoom.getAttribute('aria-valuemin')).toBe('1');
    expect(await zoom.getAttribute('aria-valuemax')).toBe('3');
    await zoom.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await zoom.getAttribute('aria-valuenow')).toBe('1.2');
    await dialog.getByRole('button', { name: MSG.profile.crop.rotateRight }).click();
    const img = dialog.getByRole('img', { name: 'Picture to crop' });
    expect(await img.evaluate((el) => (el as HTMLElement).style.transform)).toBe('scale(1.2) rotate(90deg)');
    await expectAccessible(page);

    const uploaded = page.waitForResponse(
      (r) => r.url().includes('/api/uploads/profile-image') || r.url().includes('/api/resumable'),
    );
    await dialog.getByRole('button', { name: MSG.profile.crop.apply }).click();
    await uploaded;
    await dialog.waitFor({ state: 'hidden' });
    const picture = page.getByRole('img', { name: MSG.profile.fields.picture });
    await expect
      .poll(() => picture.getAttribute('src'))
      .toMatch(/^\/api\/files\/users\/[^/]+\/profile\/[0-9a-f]{64}\.jpg$/);
    // The exported picture is a square JPEG of at most 1024 px.
    const size = await picture.evaluate(async (el) => {
      const image = new Image();
      image.src = (el as HTMLImageElement).src;
      await image.decode();
      return [image.naturalWidth, image.naturalHeight];
    });
    expect(size[0]).toBe(size[1]);
    expect(size[0]).toBeLessThanOrEqual(1024);

    await page.getByRole('button', { name: MSG.profile.save }).click();
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.waitFor();
    await page.getByRole('heading', { name: MSG.profile.title }).waitFor();
    await page.getByRole('button', { name: MSG.profile.editProfile }).waitFor();
    const account = page.getByRole('button', { name: 'Account menu' });
    expect(await account.getByText('UCLA').isVisible()).toBe(true);
    expect(await account.locator('img').getAttribute('src')).toBe(await picture.getAttribute('src'));
    await expectAccessible(page);

    // The e-mail notices switch (on for a new account) is kept after a reload.
    const notices = page.getByRole('switch', { name: MSG.profile.emailNotifications });
    expect(await notices.isChecked()).toBe(true);
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/profile/notifications') && r.ok()),
      notices.click({ force: true }),
    ]);
    await page.reload();
    await page.getByRole('switch', { name: MSG.profile.emailNotifications }).waitFor({ state: 'attached' });
    expect(await page.getByRole('switch', { name: MSG.profile.emailNotifications }).isChecked()).toBe(false);

    // The guard no longer redirects.
    await page.goto(`${server.url}/feedback`);
    await page.getByRole('heading', { name: MSG.feedback.title }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/feedback');
    await page.close();
  });

  it('refuses a 5th additional image and an 11th course with the exact texts, in the UI and by the server', async () => {
    const page = await newPage(browser, { viewport: { width: 375, height: 800 } });
    await logIn(page, server.url, IMAGES);
    await page.goto(`${server.url}/profile`);
    await page.getByRole('button', { name: MSG.profile.editProfile }).click();

    const images = await Promise.all(
      [1, 2, 3, 4].map(async (seed) => ({
        name: `photo-${seed}.jpg`,
        mimeType: 'image/jpeg',
        buffer: await makeImage(page, { width: 320, height: 240, type: 'image/jpeg', seed }),
      })),
    );
    await chooseFiles(page, MSG.profile.addImages, images);
    await page.getByRole('img', { name: 'Additional image 4' }).waitFor({ timeout: 30_000 });
    await chooseFiles(page, MSG.profile.addImages, [{ ...images[0]!, name: 'fifth.jpg' }]);
    await alert(page, MSG.profile.maxImages).waitFor();
    expect(await page.getByRole('img', { name: /^Additional image/ }).count()).toBe(4);

    const course = page.getByRole('textbox', { name: MSG.profile.fields.courses });
    for (let i = 1; i <= 10; i++) {
      await course.fill(`Course ${i}`);
      await course.press('Enter');
    }
    await page.getByRole('listitem').filter({ hasText: 'Course 10' }).waitFor();
    await course.fill('Course 11');
    await page.getByRole('button', { name: MSG.profile.addCourse }).click();
    await alert(page, MSG.profile.maxCourses).waitFor();
    expect(await page.getByRole('listitem').count()).toBe(10);
    await expectAccessible(page);

    await page.getByRole('button', { name: MSG.profile.save }).click();
    await page.getByRole('button', { name: MSG.profile.editProfile }).waitFor();
    expect(await page.getByRole('img', { name: /^Additional image/ }).count()).toBe(4);
    expect(await page.getByText(/^Course \d+$/).count()).toBe(10);
    await expectAccessible(page);

    // The server refuses the same: a 5th image and an 11th course.
    const saved = (await (await page.request.get(`${server.url}/api/profile`)).json()) as {
      name: string;
      major: string;
      year: string;
      profilePicture: string;
      additionalImages: string[];
      courses: { id: string; name: string }[];
    };
    const fifth = await page.request.post(`${server.url}/api/uploads/profile-image`, {
      multipart: { file: { name: 'fifth.jpg', mimeType: 'image/jpeg', buffer: images[0]!.buffer } },
    });
    expect(fifth.status()).toBe(201);
    const fifthUrl = ((await fifth.json()) as { file: { url: string } }).file.url;
    const tooMany = await page.request.put(`${server.url}/api/profile`, {
      data: { ...saved, additionalImages: [...saved.additionalImages, fifthUrl] },
    });
    expect(tooMany.status()).toBe(400);
    expect(((await tooMany.json()) as { error: { message: string } }).error.message).toBe(MSG.profile.maxImages);
    const elevenCourses = await page.request.put(`${server.url}/api/profile`, {
      data: { ...saved, courses: [...saved.courses, { id: 'x', name: 'Course 11' }] },
    });
    expect(elevenCourses.status()).toBe(400);
    expect(((await elevenCourses.json()) as { error: { message: string } }).error.message).toBe(MSG.profile.maxCourses);
    await page.close();
  });

  it('deletes the account from the danger zone after the password is confirmed', async () => {
    const page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
    await logIn(page, server.url, LEAVER);
    await page.goto(`${server.url}/profile`);
    await page.getByRole('button', { name: MSG.profile.editProfile }).click();
    await page.getByRole('button', { name: MSG.profile.deleteAccount }).click();
    const dialog = page.getByRole('dialog', { name: MSG.profile.deleteAccount });
    await dialog.waitFor();
    await dialog.getByLabel(MSG.profile.deletePassword, { exact: true }).fill('not-my-password');
    await dialog.getByRole('button', { name: MSG.profile.deleteConfirm }).click();
    await dialog.getByRole('alert').filter({ hasText: MSG.profile.deleteWrongPassword }).waitFor();
    await expectAccessible(page);
    await dialog.getByLabel(MSG.profile.deletePassword, { exact: true }).fill('password123');
    await dialog.getByRole('button', { name: MSG.profile.deleteConfirm }).click();
    await page.waitForURL(/\/login$/);
    const again = await page.request.post(`${server.url}/api/auth/login`, {
      data: { email: LEAVER, password: 'password123' },
    });
    expect(again.ok()).toBe(false);
    expect(((await again.json()) as { error: { message: string } }).error.message).toBe(MSG.login.userNotFound);
    await page.close();
  });
});
