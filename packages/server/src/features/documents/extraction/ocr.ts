import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas, loadImage, type SKRSContext2D } from '@napi-rs/canvas';
import sharp from 'sharp';
import { createWorker, OEM, PSM, type Worker as TesseractWorker } from 'tesseract.js';
import { MSG } from '@studybuddy/shared/messages';
import { trimLineEnds } from '@studybuddy/shared/text-scan';
import { ExtractionError, megapixels } from './extract-types.ts';

const require = createRequire(import.meta.url);
/** English LSTM data shipped in npm (@tesseract.js-data/eng): nothing is downloaded at run time. */
const LANG_PATH = path.join(path.dirname(require.resolve('@tesseract.js-data/eng')), '4.0.0_best_int');

let worker: Promise<TesseractWorker> | null = null;

function ocrWorker(): Promise<TesseractWorker> {
  worker ??= (async () => {
    const w = await createWorker('eng', OEM.LSTM_ONLY, { langPath: LANG_PATH, cacheMethod: 'none', gzip: true });
    await w.setParameters({ tessedit_pageseg_mode: PSM.AUTO, user_defined_dpi: '300' });
    return w;
  })();
  return worker;
}

export interface OcrResult {
  text: string;
  confidence: number;
}

/** Tidies OCR output: no trailing spaces, at most one blank line in a row. */
function tidy(text: string): string {
  return trimLineEnds(text)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Reads the text of a page image (tesseract, page segmentation mode 3). */
export async function ocrImage(image: Buffer): Promise<OcrResult> {
  const w = await ocrWorker();
  const { data } = await w.recognize(image);
  const text = tidy(data.text);
  const words = text.split(/\s+/).filter((t) => /\p{L}{2,}/u.test(t)).length;
  // Noise from a blank or unreadable page: too few real words at low confidence.
  if (words < 2 || (data.confidence < 35 && words < 5)) return { text: '', confidence: data.confidence };
  return { text, confidence: data.confidence };
}

/**
 * A canvas as a greyscale PGM: what tesseract reads fastest (no PNG compression on the way in, no decoding on
 * the way out), made on this thread rather than on the process's shared I/O thread pool.
 */
export function canvasToPgm(ctx: SKRSContext2D, width: number, height: number): Buffer {
  const { data } = ctx.getImageData(0, 0, width, height);
  const header = Buffer.from(`P5\n${width} ${height}\n255\n`, 'ascii');
  const out = Buffer.allocUnsafe(header.length + width * height);
  header.copy(out);
  for (let i = 0, j = header.length; i < data.length; i += 4, j++) {
    // ITU-R BT.601 luma; the canvas was filled white first, so alpha is already flattened.
    out[j] = (data[i]! * 77 + data[i + 1]! * 150 + data[i + 2]! * 29) >> 8;
  }
  return out;
}

/** Formats the OCR reader decodes; anything else (SVG above all) is refused before decoding. */
const OCR_FORMATS = new Set(['png', 'jpeg', 'gif', 'webp']);

/** A BMP's size from its header (sharp does not read BMP). */
function bmpSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 26 || bytes.toString('latin1', 0, 2) !== 'BM') return null;
  if (bytes.readUInt32LE(14) === 12) return { width: bytes.readUInt16LE(18), height: bytes.readUInt16LE(20) };
  return { width: Math.abs(bytes.readInt32LE(18)), height: Math.abs(bytes.readInt32LE(22)) };
}

/** The size an image declares in its header, read without decoding a pixel; null when it is no image we read. */
async function declaredSize(bytes: Buffer): Promise<{ width: number; height: number } | null> {
  const bmp = bmpSize(bytes);
  if (bmp) return bmp;
  try {
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (!meta.format || !OCR_FORMATS.has(meta.format) || !meta.width || !meta.height) return null;
    return { width: meta.width, height: meta.pageHeight ?? meta.height };
  } catch {
    return null;
  }
}

const tooLarge = (maxPixels: number) =>
  new ExtractionError('unreadable', MSG.courses.imageTooLarge(megapixels(maxPixels)));

/**
 * An image ready for OCR: its header checked against `maxPixels` before anything is decoded, then decoded
 * natively (PNG, JPEG, GIF, BMP, WebP), flattened on white, enlarged 2x when small, and handed over as
 * greyscale — faster than letting the OCR engine decode PNG or JPEG itself.
 */
export async function imageForOcr(bytes: Buffer, maxPixels: number): Promise<Buffer> {
  const size = await declaredSize(bytes);
  if (!size) throw new ExtractionError('unreadable', MSG.courses.unreadableFile);
  if (size.width * size.height > maxPixels) throw tooLarge(maxPixels);
  let img;
  try {
    img = await loadImage(bytes);
  } catch {
    throw new ExtractionError('unreadable', MSG.courses.unreadableFile);
  }
  // The decoder must agree with the header it was checked by.
  if (img.width * img.height > maxPixels) throw tooLarge(maxPixels);
  const scale = Math.max(img.width, img.height) < 1200 ? 2 : 1;
  const width = Math.max(1, img.width * scale);
  const height = Math.max(1, img.height * scale);
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(img, 0, 0, width, height);
  return canvasToPgm(ctx, width, height);
}

export async function closeOcr(): Promise<void> {
  const w = worker;
  worker = null;
  if (w) await (await w).terminate();
}
