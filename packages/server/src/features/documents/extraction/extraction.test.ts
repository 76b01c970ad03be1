import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MSG } from '@studybuddy/shared/messages';
import { docxBomb, manyEntriesZip, pdfBomb, pdfContentBomb, pngBomb } from '../test/bombs.ts';
import { corruptPdf, docx, pptx, rtf, scannedPdf, textImage, textPdf, xlsx } from '../test/fixtures.ts';
import {
  ExtractionError,
  extractKindFor,
  type ExtractedPage,
  type ExtractKind,
  type WorkerEvent,
} from './extract-types.ts';
import { WorkerLane } from './worker-lane.ts';

const lane = new WorkerLane({ idleMs: 5_000 });
afterAll(() => lane.close());

async function extract(
  kind: ExtractKind,
  bytes: Buffer,
  startPage = 1,
  limits: { maxPages?: number; maxPixels?: number; lane?: WorkerLane } = {},
) {
  const pages: ExtractedPage[] = [];
  const events: WorkerEvent['type'][] = [];
  const copy = new Uint8Array(bytes);
  await (limits.lane ?? lane).run(
    {
      op: 'extract',
      kind,
      bytes: copy.buffer,
      startPage,
      maxPages: limits.maxPages ?? 100,
      maxPixels: limits.maxPixels ?? 40_000_000,
    },
    {
      transfer: [copy.buffer],
      onEvent: (e) => {
        events.push(e.type);
        if (e.type === 'page') pages.push(e.page);
      },
    },
  );
  return { pages, events };
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('text extraction in a worker thread', () => {
  it('reads the text layer of a PDF page by page', async () => {
    const pdf = await textPdf([
      ['Cell biology basics.', 'Mitochondria make ATP.'],
      ['Photosynthesis happens in chloroplasts.'],
    ]);
    const { pages, events } = await extract('pdf', pdf);
    expect(pages.map((p) => [p.page, p.label, p.method])).toEqual([
      [1, 'page 1', 'text'],
      [2, 'page 2', 'text'],
    ]);
    expect(squash(pages[0]!.text)).toBe('Cell biology basics. Mitochondria make ATP.');
    expect(squash(pages[1]!.text)).toBe('Photosynthesis happens in chloroplasts.');
    expect(events).not.toContain('ocr');
  });

  it('continues from the page given when a job resumes', async () => {
    const pdf = await textPdf([['First page here.'], ['Second page here.'], ['Third page here.']]);
    const { pages } = await extract('pdf', pdf, 3);
    expect(pages.map((p) => p.page)).toEqual([3]);
  });

  it('reads a scanned PDF page (no text layer) with OCR at 300 dpi', async () => {
    const pdf = await scannedPdf([['The midterm exam is on October 3.', 'Bring a calculator.']]);
    const { pages, events } = await extract('pdf', pdf);
    expect(events).toContain('ocr');
    expect(pages).toHaveLength(1);
    expect(pages[0]!.method).toBe('ocr');
    expect(squash(pages[0]!.text)).toBe('The midterm exam is on October 3. Bring a calculator.');
  });

  it('reads an image with OCR', async () => {
    const png = await textImage(['Office hours are Tuesday at noon.']);
    const { pages } = await extract('image', png);
    expect(pages).toEqual([
      { page: 1, unit: 'page', label: 'page 1', text: 'Office hours are Tuesday at noon.', method: 'ocr' },
    ]);
  });

  it('reads DOCX paragraphs into sections', async () => {
    const { pages } = await extract('docx', await docx(['Essay prompt', 'The final essay is due on May 5.']));
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({ page: 1, unit: 'section', label: 'section 1' });
    expect(pages[0]!.text).toContain('The final essay is due on May 5.');
    expect(pages[0]!.text).toContain('Essay prompt');
  });

  it('reads PPTX slide by slide', async () => {
    const { pages } = await extract(
      'pptx',
      await pptx([['Lecture 1', 'Cells are the unit of life'], ['DNA replication']]),
    );
    expect(pages.map((p) => [p.label, p.text])).toEqual([
      ['slide 1', 'Lecture 1\nCells are the unit of life'],
      ['slide 2', 'DNA replication'],
    ]);
  });

  it('reads XLSX sheet by sheet', async () => {
    const file = await xlsx({
      Grades: [
        ['Name', 'Score'],
        ['Ada', 97],
      ],
      Schedule: [['Week 1', 'Midterm on Oct 3']],
    });
    const { pages } = await extract('xlsx', file);
    expect(pages.map((p) => [p.label, p.text])).toEqual([
      ['sheet Grades', 'Name\tScore\nAda\t97'],
      ['sheet Schedule', 'Week 1\tMidterm on Oct 3'],
    ]);
  });

  it('reads TXT (UTF-8 with BOM), CSV and RTF', async () => {
    const txt = await extract('text', Buffer.from('\uFEFFEnzymes speed up reactions.\n\nThey are proteins — mostly.'));
    expect(txt.pages[0]!.text).toBe('Enzymes speed up reactions.\n\nThey are proteins — mostly.');
    const csv = await extract('text', Buffer.from('week,topic\n1,Cells\n2,Genetics\n'));
    expect(csv.pages[0]!.text).toBe('week,topic\n1,Cells\n2,Genetics');
    const r = await extract('rtf', rtf(['Some {\\b bold} text about enzymes.', 'Second paragraph.']));
    expect(squash(r.pages[0]!.text)).toBe('Some bold text about enzymes. Second paragraph.');
  });

  it('splits long plain text into sections of about 400 words', async () => {
    const para = (n: number) => Array.from({ length: 100 }, (_, i) => `word${n}x${i}`).join(' ');
    const text = Array.from({ length: 10 }, (_, n) => para(n)).join('\n\n');
    const { pages } = await extract('text', Buffer.from(text));
    expect(pages.map((p) => p.label)).toEqual(['section 1', 'section 2', 'section 3']);
    expect(pages.map((p) => p.text.split(/\s+/).length)).toEqual([400, 400, 200]);
  });

  it('gives a clear, permanent error for a corrupt PDF and stays usable afterwards', async () => {
    const err = await extract('pdf', corruptPdf()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractionError);
    expect(err).toMatchObject({ kind: 'unreadable', message: MSG.courses.unreadablePdf });
    const { pages } = await extract('text', Buffer.from('Still working.'));
    expect(pages[0]!.text).toBe('Still working.');
  });

  it('reads a stored file from its path, and refuses one named .pdf without a PDF header after its first kilobyte', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'extract-file-'));
    try {
      const file = path.join(dir, 'notes.pdf');
      await writeFile(file, await textPdf([['Read from disk by the worker.']]));
      const pages: ExtractedPage[] = [];
      const run = (kind: ExtractKind) =>
        lane.run(
          { op: 'extract', kind, file, startPage: 1, maxPages: 100, maxPixels: 40_000_000 },
          {
            onEvent: (e) => e.type === 'page' && pages.push(e.page),
          },
        );
      await run('pdf');
      expect(pages.map((p) => squash(p.text))).toEqual(['Read from disk by the worker.']);
      // 3 GB of nothing (sparse): reading it whole would fail otherwise, as would sending it to pdf.js.
      await writeFile(file, randomBytes(64 * 1024));
      await truncate(file, 3 * 2 ** 30);
      expect(await run('pdf').catch((e: unknown) => e)).toMatchObject({
        kind: 'unreadable',
        message: MSG.courses.unreadablePdf,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const sent = await extract('pdf', randomBytes(256 * 1024)).catch((e: unknown) => e);
    expect(sent).toMatchObject({ kind: 'unreadable', message: MSG.courses.unreadablePdf });
  });

  it('refuses a binary file that claims to be text', async () => {
    const err = await extract('text', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 1])).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'unreadable', message: MSG.courses.unreadableFile });
  });

  it('picks the reader by extension', () => {
    expect(extractKindFor('Scan.PDF')).toBe('pdf');
    expect(extractKindFor('photo.jpeg')).toBe('image');
    expect(extractKindFor('notes.docx')).toBe('docx');
    expect(extractKindFor('old.doc')).toBe('none');
    expect(extractKindFor('talk.mp4')).toBe('none');
    expect(extractKindFor('README', 'text/plain')).toBe('text');
  });
});

describe('decoder caps: bombs end as unreadable, the thread lives on', () => {
  const refusal = (err: unknown, message: string) => {
    expect(err).toBeInstanceOf(ExtractionError);
    expect(err).toMatchObject({ kind: 'unreadable', message });
  };
  const failure = (kind: ExtractKind, bytes: Buffer, limits: Parameters<typeof extract>[3] = {}) =>
    extract(kind, bytes, 1, limits).then(
      () => expect.fail('extraction should have been refused'),
      (e: unknown) => e,
    );

  it('refuses an image whose header declares more pixels than the cap, before decoding it', async () => {
    refusal(await failure('image', pngBomb(30_000, 30_000)), MSG.courses.imageTooLarge(40));
    // The cap is the configured one: a 2000 × 1000 PNG header is over 1 megapixel.
    refusal(await failure('image', pngBomb(2000, 1000), { maxPixels: 1_000_000 }), MSG.courses.imageTooLarge(1));
    const bmp = Buffer.alloc(54);
    bmp.write('BM', 0, 'latin1');
    bmp.writeUInt32LE(40, 14);
    bmp.writeInt32LE(30_000, 18);
    bmp.writeInt32LE(-30_000, 22);
    refusal(await failure('image', bmp), MSG.courses.imageTooLarge(40));
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="90000" height="90000"/>');
    refusal(await failure('image', svg), MSG.courses.unreadableFile);
    const { pages } = await extract('image', await textImage(['Still reading images.']));
    expect(pages[0]!.text).toBe('Still reading images.');
  });

  it('refuses a PDF page painted with an image beyond the cap, and a PDF with more pages than the cap', async () => {
    refusal(await failure('pdf', pdfBomb({ image: { width: 30_000, height: 30_000 } })), MSG.courses.imageTooLarge(40));
    refusal(await failure('pdf', pdfBomb({ pages: 6 }), { maxPages: 5 }), MSG.courses.tooManyPages(5));
    // 300 MB of page content in a 300 KB file (its filter's name spelled with a #61 escape, as pdf.js allows).
    refusal(await failure('pdf', await pdfContentBomb(300 * 2 ** 20)), MSG.courses.tooLargeToRead);
    const { pages } = await extract('pdf', pdfBomb({ pages: 5 }), 1, { maxPages: 5 });
    expect(pages.map((p) => p.text)).toEqual(['Page', 'Page', 'Page', 'Page', 'Page']);
  });

  it('refuses DOCX, PPTX and XLSX bombs by declared size, ratio, real inflated size and entry count', async () => {
    const honest = await docxBomb(300 * 2 ** 20);
    refusal(await failure('docx', honest), MSG.courses.tooLargeToRead);
    // Headers that claim 1000 bytes: only counting the inflated bytes finds it.
    const lying = await docxBomb(300 * 2 ** 20, 'lie');
    refusal(await failure('docx', lying), MSG.courses.tooLargeToRead);
    refusal(await failure('pptx', lying), MSG.courses.tooLargeToRead);
    refusal(await failure('xlsx', lying), MSG.courses.tooLargeToRead);
    // Small, but 1:1000: no office XML compresses like that.
    refusal(await failure('docx', await docxBomb(4 * 2 ** 20)), MSG.courses.tooLargeToRead);
    refusal(await failure('xlsx', manyEntriesZip(10_001)), MSG.courses.tooLargeToRead);
    const { pages } = await extract('docx', await docx(['Still reading Word files.']));
    expect(pages[0]!.text).toBe('Still reading Word files.');
  });

  it('ends only the thread when a file needs more heap than allowed, and refuses the file for good', async () => {
    const small = new WorkerLane({ idleMs: 1_000, maxOldGenerationSizeMb: 64 });
    try {
      const ok = await extract('text', Buffer.from('A small file.'), 1, { lane: small });
      expect(ok.pages[0]!.text).toBe('A small file.');
      // 25 MB of short words: the sections built from it outgrow a 64 MB heap.
      const words = Buffer.from('ab '.repeat(8_000_000));
      refusal(await failure('text', words, { lane: small }), MSG.courses.tooLargeToRead);
      const again = await extract('text', Buffer.from('Alive again.'), 1, { lane: small });
      expect(again.pages[0]!.text).toBe('Alive again.');
    } finally {
      await small.close();
    }
  });
});
