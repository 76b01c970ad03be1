import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { PDFDocument } from 'pdf-lib';
import { DEMO_TOKEN, startEmulator, type Emulator } from '@studybuddy/canvas-emulator/server';
import { MSG } from '@studybuddy/shared/messages';
import { expectAccessible, launchBrowser, newPage } from './browser.ts';
import { chooseFiles, logIn } from './profile-helpers.ts';
import { startServer, type RunningServer } from './server.ts';
import { transitionsEnded } from './transitions.ts';

const EMAIL = 'docs@g.ucla.edu';

/** Lets the drawer's and alerts' transitions finish, so the check sees the settled colours. */
async function checkSettled(page: Page): Promise<void> {
  await transitionsEnded(page);
  await expectAccessible(page);
}
const CANVAS_EMAIL = 'canvas-docs@g.ucla.edu';

/** Set ANSWER_SCREENSHOTS to a folder for pictures of a short answer at 1280 and 375 pixels wide. */
async function shoot(page: Page, answer: Locator, width: number): Promise<void> {
  const dir = process.env.ANSWER_SCREENSHOTS;
  if (!dir) return;
  await answer.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(dir, `short-answer-${width}.png`) });
}

/** A scanned page: the browser draws the lines as an image, pdf-lib wraps it in a PDF with no text layer. */
async function scannedPdf(page: Page, lines: string[]): Promise<Buffer> {
  const base64 = await page.evaluate((text) => {
    const canvas = document.createElement('canvas');
    canvas.width = 1700;
    canvas.height = 110 + text.length * 72;
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = '#111';
    ctx.font = '40px sans-serif';
    text.forEach((line, i) => ctx.fillText(line, 40, 80 + i * 72));
    return canvas.toDataURL('image/png').split(',')[1]!;
  }, lines);
  const doc = await PDFDocument.create();
  const png = await doc.embedPng(Buffer.from(base64, 'base64'));
  const pdfPage = doc.addPage([(png.width * 72) / 300, (png.height * 72) / 300]);
  pdfPage.drawImage(png, { x: 0, y: 0, width: pdfPage.getWidth(), height: pdfPage.getHeight() });
  return Buffer.from(await doc.save());
}

describe('Courses page in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator({ throttle: false });
    [server, browser] = await Promise.all([
      startServer({ RATE_LIMITS: 'false', CANVAS_URL_UCLA: emu.url }, [
        { email: EMAIL, name: 'Doc Reader', courses: ['BIO 101', 'CHEM 20'] },
        { email: CANVAS_EMAIL, name: 'Canvas User' },
      ]),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await emu?.close();
  });

  it('uploads a scanned PDF, shows progress, reads it with OCR, summarises it and answers with the quoted page', async () => {
    const page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
    await logIn(page, server.url, EMAIL);
    await page.goto(`${server.url}/courses`);
    await page.getByRole('heading', { name: MSG.courses.courseDocuments }).waitFor();
    expect(await page.getByText(MSG.courses.selectCourse).isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: MSG.courses.yourCourses }).isVisible()).toBe(true);
    await expectAccessible(page);

    await page.getByRole('button', { name: 'BIO 101' }).click();
    await page.getByRole('heading', { name: MSG.courses.documentsTitle('BIO 101') }).waitFor();
    await page.getByText(MSG.courses.noDocuments).waitFor();
    const connect = page.getByRole('link', { name: MSG.courses.connectCanvas });
    expect(await connect.getAttribute('href')).toBe('/profile');
    await expectAccessible(page);

    const pdf = await scannedPdf(page, [
      'BIO 101 course information',
      'The midterm exam is on October 3 in Franz Hall.',
      'Office hours are on Tuesday at noon.',
    ]);
    // Hold the upload a moment so the progress bar can be seen.
    await page.route('**/api/uploads/**', async (route) => {
      await new Promise((r) => setTimeout(r, 1000));
      await route.continue();
    });
    await chooseFiles(page, MSG.courses.uploadDocument, [
      { name: 'BIO 101 scan.pdf', mimeType: 'application/pdf', buffer: pdf },
    ]);
    await page.getByText(MSG.courses.uploading('BIO 101 scan.pdf')).waitFor();
    await page.getByRole('progressbar', { name: MSG.courses.uploadProgress }).waitFor({ state: 'attached' });
    await page.getByText(MSG.courses.ocrMessage).waitFor();

    // The new document opens in the side panel and its status moves on to done.
    const panel = page.getByTestId('document-panel');
    await panel.waitFor({ timeout: 15_000 });
    const status = panel.getByTestId('document-status');
    await status.getByText(`${MSG.courses.statusLabel}: ${MSG.courses.status.done}`).waitFor({ timeout: 120_000 });
    const summary = panel.getByTestId('document-summary');
    expect(await summary.innerText()).toMatch(/midterm exam is on October 3/i);
    await page.getByText(MSG.courses.ocrSuccess).waitFor();
    await checkSettled(page);

    await panel.getByLabel(MSG.courses.questionLabel).fill('When is the midterm exam?');
    await panel.getByRole('button', { name: MSG.courses.ask, exact: true }).click();
    const answer = panel.getByTestId('qa-answer').last();
    await answer.waitFor();
    // Short answer first, highlighted in the sentence it comes from, with its page (issue 28).
    expect(await answer.getByTestId('short-answer').innerText()).toBe('October 3');
    expect(await answer.getByTestId('answer-highlight').innerText()).toBe('October 3');
    expect(await answer.getByTestId('answer-sentence').innerText()).toMatch(
      /The midterm exam is on October 3 in Franz Hall/,
    );
    await shoot(page, answer, 1280);
    await answer.getByRole('button', { name: MSG.courses.showInDocument('page 1') }).click();
    const cited = panel.getByTestId('cited-passage');
    await cited.waitFor();
    expect(await cited.innerText()).toContain('October 3');
    await checkSettled(page);

    // The OCR success message clears after 5 s.
    await page.getByText(MSG.courses.ocrSuccess).waitFor({ state: 'hidden', timeout: 8_000 });

    // Closing the panel leaves 'View Document' to reopen it.
    await page.getByRole('button', { name: MSG.courses.closePanel }).click();
    await panel.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: MSG.courses.viewDocument }).click();
    await panel.waitFor();
    expect(await panel.getByTestId('qa-answer').count()).toBe(1);
    await page.close();
  }, 240_000);

  it('filters by type and source with counts, searches, and says when nothing matches', async () => {
    const page = await newPage(browser, { viewport: { width: 375, height: 800 } });
    await logIn(page, server.url, EMAIL);
    await page.goto(`${server.url}/courses?course=seed-0`);
    await page.getByRole('heading', { name: MSG.courses.documentsTitle('BIO 101') }).waitFor();
    await page.getByText('BIO 101 scan.pdf').waitFor();
    await page.getByRole('button', { name: MSG.courses.filter }).click();
    await page.getByRole('combobox', { name: MSG.courses.source }).click();
    await page.getByRole('option', { name: MSG.courses.withCount(MSG.courses.sourceCanvas, 0) }).click();
    await page.getByText(MSG.courses.noMatches).waitFor();
    await page.getByRole('button', { name: MSG.courses.clearFilters }).first().click();
    await page.getByText('BIO 101 scan.pdf').waitFor();
    await page.getByRole('textbox', { name: MSG.courses.search }).fill('Franz Hall');
    await page.getByText(MSG.courses.textMatches).waitFor();
    await expectAccessible(page);
    await page.getByRole('textbox', { name: MSG.courses.search }).fill('');
    // The stored answer keeps its short answer, highlighted in its sentence, on a phone-sized screen.
    await page.getByRole('button', { name: MSG.courses.open('BIO 101 scan.pdf') }).click();
    const answer = page.getByTestId('document-panel').getByTestId('qa-answer').first();
    await answer.waitFor();
    expect(await answer.getByTestId('answer-highlight').innerText()).toBe('October 3');
    expect(await answer.getByRole('button', { name: MSG.courses.showInDocument('page 1') }).isVisible()).toBe(true);
    await shoot(page, answer, 375);
    await page.close();
  }, 60_000);

  it('lists Canvas files with their modules, and on a 403 shows both texts and still allows an upload', async () => {
    const page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
    await logIn(page, server.url, CANVAS_EMAIL);
    const connect = await page.request.post(`${server.url}/api/lms/connect`, { data: { access_token: DEMO_TOKEN } });
    expect(connect.ok()).toBe(true);
    const courses = emu.data.courses;
    const first = courses.find((c) => c.id === 1100)!;
    const denied = courses.find((c) => c.id === 1102)!;

    await page.goto(`${server.url}/courses`);
    await page.getByRole('button', { name: first.name, exact: true }).click();
    await page.getByRole('heading', { name: MSG.courses.documentsTitle(first.name) }).waitFor();
    const files = emu.data.files.filter((f) => f.course_id === 1100);
    const linked = emu.data.modules
      .filter((m) => m.course_id === 1100)
      .flatMap((m) => m.items.filter((i) => i.type === 'File').map((i) => ({ id: i.content_id, module: m.name })));
    const shown = files.find((f) => f.id === linked[0]!.id)!;
    const row = page.getByTestId('document-row').filter({ hasText: shown.display_name });
    await row.waitFor();
    expect(await row.getByText(linked[0]!.module).isVisible()).toBe(true);
    expect(await row.getByText(MSG.courses.sourceCanvas, { exact: true }).isVisible()).toBe(true);
    expect(await page.getByTestId('document-row').count()).toBe(files.length);
    expect(await page.getByText(MSG.courses.connectCanvasPrompt).count()).toBe(0);
    await expectAccessible(page);

    emu.addFault({ kind: 'forbidden', courseId: 1102, resource: 'files' });
    try {
      await page.getByRole('button', { name: denied.name, exact: true }).click();
      await page.getByRole('heading', { name: MSG.courses.documentsTitle(denied.name) }).waitFor();
      await page.getByText(MSG.courses.canvasForbidden).waitFor();
      expect(await page.getByText(MSG.courses.canStillUpload).isVisible()).toBe(true);
      await expectAccessible(page);
      await chooseFiles(page, MSG.courses.uploadDocument, [
        { name: 'my notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Notes on the reading for this week.') },
      ]);
      await page.getByTestId('document-row').filter({ hasText: 'my notes.txt' }).waitFor();
      expect(
        await page
          .getByTestId('document-row')
          .filter({ hasText: 'my notes.txt' })
          .getByText(MSG.courses.sourceUploaded, { exact: true })
          .isVisible(),
      ).toBe(true);
    } finally {
      emu.clearFaults();
    }
    await page.close();
  }, 120_000);
});
