import { mkdirSync } from 'node:fs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { launchBrowser, newPage } from './browser.ts';
import { logIn, chooseFiles } from './profile-helpers.ts';
import { startServer } from './server.ts';
mkdirSync('/tmp/docshots', { recursive: true });
const server = await startServer({ RATE_LIMITS: 'false' }, [{ email: 'shot@g.ucla.edu', name: 'Shot Taker', courses: ['BIO 101 - Cell Biology', 'CHEM 20'] }]);
const browser = await launchBrowser();
try {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const t of ['Introduction to cells. Cells are the basic unit of life and every organism is made of cells.', 'Mitochondria are the powerhouse of the cell. They produce ATP through cellular respiration.', 'The midterm exam is on October 3 in Franz Hall. The final exam counts for 40 percent of the grade.']) {
    doc.addPage([612, 792]).drawText(t, { x: 40, y: 700, size: 11, font });
  }
  const pdf = Buffer.from(await doc.save());
  for (const [w, h] of [[1280, 900], [375, 800]] as const) {
    const page = await newPage(browser, { viewport: { width: w, height: h } });
    await logIn(page, server.url, 'shot@g.ucla.edu');
    await page.goto(`${server.url}/courses`);
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `/tmp/docshots/${w}-a-nocourse.png`, fullPage: true });
    await page.goto(`${server.url}/courses?course=seed-0`);
    await page.waitForTimeout(1500);
    if (w === 1280) {
      await chooseFiles(page, 'Upload Document', [{ name: 'Lecture 2 - Cells.pdf', mimeType: 'application/pdf', buffer: pdf }]);
      await chooseFiles(page, 'Upload Document', [{ name: 'Syllabus.txt', mimeType: 'text/plain', buffer: Buffer.from('Course syllabus. Grading: exams 60 percent, labs 40 percent.') }]);
      await page.waitForTimeout(2000);
      await page.screenshot({ path: `/tmp/docshots/${w}-b0-processing.png` });
      await page.waitForTimeout(12000);
      await page.getByRole('button', { name: 'Close document panel' }).click();
      await page.waitForTimeout(500);
    }
    await page.screenshot({ path: `/tmp/docshots/${w}-b-course.png`, fullPage: true });
    await page.getByRole('button', { name: 'Open Lecture 2 - Cells.pdf' }).click();
    await page.waitForTimeout(2500);
    await page.getByLabel('Your question').fill('When is the midterm exam?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.waitForTimeout(2500);
    await page.screenshot({ path: `/tmp/docshots/${w}-c-panel.png` });
    await page.getByRole('button', { name: /Show page/ }).first().click();
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `/tmp/docshots/${w}-d-cited.png` });
    await page.getByRole('button', { name: 'Close document panel' }).click();
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForTimeout(500);
    await page.screenshot({ path: `/tmp/docshots/${w}-e-filters.png`, fullPage: true });
    await page.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
