import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { getDocument, OPS, type PDFDocumentProxy, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { MSG } from '@studybuddy/shared/messages';
import { ExtractionError, megapixels, type ExtractOptions, type ExtractResult } from './extract-types.ts';
import { checkPdfStreams, hasPdfHeader } from './pdf-limits.ts';

// The OCR engine and image decoder (tesseract.js, sharp) load with the first scanned page: a worker that only
// reads text PDFs, or refuses files that are no PDF, never holds them.
const ocr = () => import('./ocr.ts');

const require = createRequire(import.meta.url);
const PDFJS_ROOT = path.dirname(require.resolve('pdfjs-dist/package.json'));
const STANDARD_FONTS = path.join(PDFJS_ROOT, 'standard_fonts') + path.sep;

/** A page with at least this many letters and digits in its text layer is text; below, a page with images is a scan. */
const FULL_TEXT_CHARS = 40;
const IMAGE_OPS = new Set<number>([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject]);

/** Whether the page paints any image (a scan, a photo of a whiteboard…). */
async function hasImages(page: PDFPageProxy): Promise<boolean> {
  const ops = await page.getOperatorList();
  return ops.fnArray.some((fn) => IMAGE_OPS.has(fn));
}
/** OCR resolution; pages are capped (side and area) so a poster-sized page cannot exhaust memory. */
const OCR_DPI = 300;
const MAX_RENDER_SIDE = 5000;

/**
 * pdf.js drops an image above `maxImageSize` with nothing but a warning (verbosity 1, through this thread's
 * console). While a PDF is read, count those and keep the other warnings as quiet as verbosity 0 was.
 */
const DROPPED_IMAGE = 'Image exceeded maximum allowed size';
let droppedImages = 0;

function watchDroppedImages(): () => void {
  const original = console.warn;
  console.warn = (...args: unknown[]) => {
    const first = String(args[0]);
    if (first.includes(DROPPED_IMAGE)) droppedImages++;
    else if (!first.startsWith('Warning: ')) original(...args);
  };
  return () => {
    console.warn = original;
  };
}

async function open(bytes: Uint8Array, maxPixels: number): Promise<PDFDocumentProxy> {
  const task = getDocument({
    data: bytes,
    standardFontDataUrl: STANDARD_FONTS,
    disableFontFace: true,
    useSystemFonts: false,
    isEvalSupported: false,
    // Decoder caps: no image above maxPixels is decoded, nor any scratch canvas above its RGBA size.
    maxImageSize: maxPixels,
    canvasMaxAreaInBytes: maxPixels * 4,
    isOffscreenCanvasSupported: false,
    verbosity: 1,
  });
  try {
    return await task.promise;
  } catch (err) {
    // A document that failed to open keeps its bytes and parser state alive until its task is destroyed.
    await task.destroy().catch(() => undefined);
    const name = (err as { name?: string }).name;
    if (name === 'PasswordException') throw new ExtractionError('unreadable', MSG.courses.encryptedPdf);
    throw new ExtractionError('unreadable', MSG.courses.unreadablePdf);
  }
}

interface TextItemLike {
  str?: string;
  hasEOL?: boolean;
}

/** The page's text layer in reading order, lines kept. */
function joinItems(items: TextItemLike[]): string {
  let out = '';
  for (const item of items) {
    if (typeof item.str !== 'string') continue;
    out += item.str;
    if (item.hasEOL) out += '\n';
    else if (item.str && !out.endsWith(' ')) out += ' ';
  }
  return out
    .replace(/[ \t]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const countAlnum = (s: string) => (s.match(/[\p{L}\p{N}]/gu) ?? []).length;

/** Renders one page at ~300 dpi (less when it would exceed `maxPixels`) on white, as a greyscale image for OCR. */
async function renderPage(pdf: PDFDocumentProxy, pageNumber: number, maxPixels: number): Promise<Buffer> {
  const page = await pdf.getPage(pageNumber);
  const base = page.getViewport({ scale: 1 });
  const scale = Math.min(
    OCR_DPI / 72,
    MAX_RENDER_SIDE / Math.max(base.width, base.height),
    Math.sqrt(maxPixels / Math.max(1, base.width * base.height)),
  );
  const viewport = page.getViewport({ scale });
  const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  // pdf.js draws on any 2D context with the DOM canvas API; @napi-rs/canvas provides one in Node.
  const params = { canvas, canvasContext: ctx, viewport } as unknown as Parameters<typeof page.render>[0];
  await page.render(params).promise;
  page.cleanup();
  return (await ocr()).canvasToPgm(ctx, canvas.width, canvas.height);
}

/**
 * Text of every page from the PDF text layer; pages without one (scans) are rendered and read with OCR.
 * Pages before `startPage` are skipped (they were stored by an earlier, interrupted run).
 */
export async function extractPdf(bytes: Uint8Array, opts: ExtractOptions): Promise<ExtractResult> {
  if (!hasPdfHeader(bytes)) throw new ExtractionError('unreadable', MSG.courses.unreadablePdf);
  await checkPdfStreams(bytes, opts.maxPixels);
  const unwatch = watchDroppedImages();
  try {
    return await readPages(await open(bytes, opts.maxPixels), opts);
  } finally {
    unwatch();
  }
}

async function readPages(pdf: PDFDocumentProxy, opts: ExtractOptions): Promise<ExtractResult> {
  try {
    const pages = pdf.numPages;
    if (pages > opts.maxPages) throw new ExtractionError('unreadable', MSG.courses.tooManyPages(opts.maxPages));
    opts.onTotal(pages);
    const first = Math.max(1, opts.startPage);
    for (let n = first; n <= pages; n++) {
      // Every turn reads at least one page, so a resumed document always moves on.
      if (n > first && opts.shouldStop?.()) return { nextPage: n };
      let text: string;
      let scanned: boolean;
      const dropped = droppedImages;
      try {
        const page = await pdf.getPage(n);
        text = joinItems((await page.getTextContent()).items as TextItemLike[]);
        scanned = countAlnum(text) < FULL_TEXT_CHARS && (await hasImages(page));
        page.cleanup();
      } catch {
        throw new ExtractionError('unreadable', MSG.courses.unreadablePdf);
      }
      // A page that is mostly an image too large to decode: say so rather than "no text found".
      if (droppedImages > dropped && countAlnum(text) < FULL_TEXT_CHARS) {
        throw new ExtractionError('unreadable', MSG.courses.imageTooLarge(megapixels(opts.maxPixels)));
      }
      if (!scanned) {
        opts.onPage({ page: n, unit: 'page', label: `page ${n}`, text, method: 'text' });
        continue;
      }
      opts.onOcrStart(n, pages);
      const { ocrImage } = await ocr();
      const read = await ocrImage(await renderPage(pdf, n, opts.maxPixels));
      // Keep what the text layer had when OCR found nothing better (e.g. a page with just a title).
      const best = countAlnum(read.text) >= countAlnum(text) ? read.text : text;
      opts.onPage({ page: n, unit: 'page', label: `page ${n}`, text: best, method: 'ocr' });
    }
    return {};
  } finally {
    await pdf.destroy();
  }
}
