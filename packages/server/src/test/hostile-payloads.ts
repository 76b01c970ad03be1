// Hostile inputs of issue 13, made on the spot (tests and bench/abuse.bench.ts): texts that make naive regexes
// quadratic, and small files that decode to gigabytes. Nothing large is ever committed.
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { deflateZeros, pdfFlateImage, pdfStream, writeDocx, writePdf, writePng } from './file-formats.ts';

/** Texts that take a quadratic regex minutes (each under the 500,000-character summarize-text cap). */
export const pathologicalTexts = {
  // `/[ \t]+\n/` and `/ *\n */` retry the whole run of spaces from every start.
  spaces: (n: number) => `a${' '.repeat(n)}b`,
  /** `/<[^>]+>/` scans to the end from every unclosed `<`. */
  openBrackets: (n: number) => '<'.repeat(n),
  /** `/<[a-z][\s\S]*>/i` backtracks from every `<a` to the end. */
  unclosedTags: (n: number) => '<a '.repeat(n),
  /** Newlines then spaces and no newline after them (`/[ \t]+\n/` from every space). */
  newlinesThenSpaces: (chars: number) => '\n'.repeat(chars / 2) + ' '.repeat(chars / 2) + 'x',
  /** Alternating newlines and spaces: a megabyte of blank lines. */
  blankLines: (chars: number) => ' \n'.repeat(chars / 2),
};

/**
 * A real, valid grayscale PNG of `width` × `height` black pixels. At 8 bits, 30000 × 30000 is 0.9 MB on disk
 * and 900 MB (3.6 GB as RGBA) decoded; at 1 bit the file is about 110 KB (small enough for a direct upload).
 */
export async function pngBomb(width = 30_000, height = 30_000, bitDepth: 1 | 8 = 8): Promise<Buffer> {
  const rowBytes = 1 + Math.ceil((width * bitDepth) / 8); // filter byte 0 + the row, all zero
  const { data } = await deflateZeros(rowBytes * height, { zlib: true });
  return writePng({ width, height, bitDepth, colorType: 0 }, data);
}

/**
 * A DOCX whose word/document.xml inflates to `bytes` (default 1 GB, about 1 MB on disk): a valid zip with the
 * right content types, the XML opened and then nothing but zero bytes.
 */
export async function docxBomb(bytes = 1024 ** 3): Promise<Buffer> {
  const prefix = Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>',
  );
  const { data, crc } = await deflateZeros(bytes - prefix.length, { prefix });
  return writeDocx({ deflated: data, size: bytes, crc });
}

/**
 * A one-page PDF (no text layer, so it is rendered for OCR) whose only content is a `width` × `height` grayscale
 * image: about 0.9 MB for 30000 × 30000, and 900 MB once pdf.js decodes it.
 */
export async function pdfWithHugeImage(width = 30_000, height = 30_000): Promise<Buffer> {
  const { data } = await deflateZeros(width * height, { zlib: true });
  const content = 'q 612 0 0 792 0 0 cm /Im0 Do Q';
  return writePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>',
    pdfFlateImage(width, height, 'DeviceGray', data),
    pdfStream(`<< /Length ${content.length} >>`, content),
  ]);
}

/** A text-layer PDF of `pages` pages, one short line each (a page cap is what stops it). */
export async function manyPagesPdf(pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) {
    doc.addPage([612, 792]).drawText(`Page ${i + 1}: the mitochondria is the powerhouse of the cell.`, {
      x: 50,
      y: 700,
      size: 12,
      font,
    });
  }
  return Buffer.from(await doc.save());
}

/** A scanned PDF of `pages` pages that all show the same PNG (one image object: small file, every page OCRed). */
export async function scannedPagesPdf(pages: number, png: Buffer): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const image = await doc.embedPng(png);
  const size: [number, number] = [(image.width * 72) / 300, (image.height * 72) / 300];
  for (let i = 0; i < pages; i++) {
    doc.addPage(size).drawImage(image, { x: 0, y: 0, width: size[0], height: size[1] });
  }
  return Buffer.from(await doc.save());
}
