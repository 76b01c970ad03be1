// Decompression bombs for tests and benchmarks: small files that declare or unpack to huge sizes, made on the spot.
import { deflateRawSync, deflateSync } from 'node:zlib';
import {
  deflateZeros,
  pdfFlateImage,
  pdfStream,
  writeDocx,
  writePdf,
  writePng,
  writeZip,
} from '../../../test/file-formats.ts';

/** A valid PNG header declaring width × height RGB pixels, with only a few rows of (zero) data. */
export function pngBomb(width = 30_000, height = 30_000, rows = 64): Buffer {
  const raw = Buffer.alloc(Math.min(rows, height) * (1 + width * 3));
  return writePng({ width, height, bitDepth: 8, colorType: 2 }, deflateSync(raw, { level: 9 }));
}

/** A hand-written PDF: `pages` pages; with `image`, the first page paints one Flate image of that declared size. */
export function pdfBomb(opts: { pages?: number; image?: { width: number; height: number } } = {}): Buffer {
  const pages = opts.pages ?? 1;
  const objects: (string | Buffer)[] = [];
  // An object's number is its index + 1.
  const add = (body: string | Buffer) => void objects.push(body);
  add('<< /Type /Catalog /Pages 2 0 R >>');
  const kids = Array.from({ length: pages }, (_, i) => `${5 + i} 0 R`).join(' ');
  add(`<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`);
  const content = opts.image ? 'q 612 0 0 792 0 0 cm /Im1 Do Q' : 'BT /F1 12 Tf 72 720 Td (Page) Tj ET';
  add(pdfStream(`<< /Length ${content.length} >>`, content));
  const { width = 1, height = 1 } = opts.image ?? {};
  add(pdfFlateImage(width, height, 'DeviceRGB', deflateSync(Buffer.alloc(1 << 20), { level: 9 })));
  for (let i = 0; i < pages; i++) {
    add(
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R /Resources << ' +
        '/XObject << /Im1 4 0 R >> /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>',
    );
  }
  return writePdf(objects);
}

/** A one-page PDF whose page content is a Flate stream of `size` zero bytes (about size / 1000 in the file). */
export async function pdfContentBomb(size: number): Promise<Buffer> {
  // FlateDecode is zlib-wrapped: a header, the raw deflate data, and a checksum pdf.js does not check.
  const data = Buffer.concat([Buffer.from([0x78, 0xda]), (await deflateZeros(size)).data, Buffer.alloc(4)]);
  return writePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << >> >>',
    pdfStream(`<< /Length ${data.length} /Filter /Fl#61teDecode >>`, data),
  ]);
}

/**
 * A DOCX whose word/document.xml inflates to `size` zero bytes. `declare` sets the size its headers claim
 * ('true' by default; a lie of a few bytes hides the bomb from a check of the declared sizes alone).
 */
export async function docxBomb(size: number, declare: 'true' | 'lie' = 'true'): Promise<Buffer> {
  const { data } = await deflateZeros(size);
  return writeDocx({ deflated: data, size: declare === 'true' ? size : 1000, crc: 0 });
}

/** A ZIP with `count` empty entries (bounds the entry count). */
export function manyEntriesZip(count: number): Buffer {
  const empty = deflateRawSync(Buffer.alloc(0));
  return writeZip(Array.from({ length: count }, (_, i) => ({ name: `x/${i}.xml`, deflated: empty, size: 0, crc: 0 })));
}
