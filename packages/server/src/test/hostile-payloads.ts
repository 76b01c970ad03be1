// Hostile inputs of issue 13, made on the spot (tests and bench/abuse.bench.ts): texts that make naive regexes
// quadratic, and small files that decode to gigabytes. Nothing large is ever committed.
import { createDeflate, createDeflateRaw, crc32, deflateSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';

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

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0);
  return Buffer.concat([head, data, crc]);
}

/** Deflates `prefix` then `zeros` zero bytes (zlib or raw) without ever holding them: a few MB of output. */
async function deflateZeros(prefix: Buffer, zeros: number, raw: boolean): Promise<{ data: Buffer; crc: number }> {
  const chunk = Buffer.alloc(Math.min(zeros, 4 * 1024 * 1024));
  const deflate = raw ? createDeflateRaw({ level: 9 }) : createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (b: Buffer) => out.push(b));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  let crc = crc32(prefix);
  deflate.write(prefix);
  for (let left = zeros; left > 0; left -= chunk.length) {
    const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
    crc = crc32(piece, crc);
    if (!deflate.write(piece)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  return { data: Buffer.concat(out), crc: crc >>> 0 };
}

/**
 * A real, valid grayscale PNG of `width` × `height` black pixels. At 8 bits, 30000 × 30000 is 0.9 MB on disk
 * and 900 MB (3.6 GB as RGBA) decoded; at 1 bit the file is about 110 KB (small enough for a direct upload).
 */
export async function pngBomb(width = 30_000, height = 30_000, bitDepth: 1 | 8 = 8): Promise<Buffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = bitDepth;
  ihdr[9] = 0; // grayscale
  const rowBytes = 1 + Math.ceil((width * bitDepth) / 8); // filter byte 0 + the row, all zero
  const { data } = await deflateZeros(Buffer.alloc(0), rowBytes * height, false);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', data),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

interface ZipEntry {
  name: string;
  /** Already raw-deflated bytes, with the size and CRC of what they inflate to. */
  deflated: Buffer;
  size: number;
  crc: number;
}

function zipOf(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(e.crc, 14);
    local.writeUInt32LE(e.deflated.length, 18);
    local.writeUInt32LE(e.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(e.crc, 16);
    central.writeUInt32LE(e.deflated.length, 20);
    central.writeUInt32LE(e.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, e.deflated);
    centrals.push(central, name);
    offset += local.length + name.length + e.deflated.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

function smallEntry(name: string, text: string): ZipEntry {
  const bytes = Buffer.from(text);
  return { name, deflated: deflateSync(bytes, { level: 9 }).subarray(2, -4), size: bytes.length, crc: crc32(bytes) };
}

/**
 * A DOCX whose word/document.xml inflates to `bytes` (default 1 GB, about 1 MB on disk): a valid zip with the
 * right content types, the XML opened and then nothing but zero bytes.
 */
export async function docxBomb(bytes = 1024 ** 3): Promise<Buffer> {
  const head = Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>',
  );
  const { data, crc } = await deflateZeros(head, bytes - head.length, true);
  return zipOf([
    smallEntry(
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ' +
        'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    smallEntry(
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" ' +
        'Target="word/document.xml"/></Relationships>',
    ),
    { name: 'word/document.xml', deflated: data, size: bytes, crc },
  ]);
}

/**
 * A one-page PDF (no text layer, so it is rendered for OCR) whose only content is a `width` × `height` grayscale
 * image: about 0.9 MB for 30000 × 30000, and 900 MB once pdf.js decodes it.
 */
export async function pdfWithHugeImage(width = 30_000, height = 30_000): Promise<Buffer> {
  const { data } = await deflateZeros(Buffer.alloc(0), width * height, false);
  const content = Buffer.from(`q 612 0 0 792 0 0 cm /Im0 Do Q`);
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from(
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>',
    ),
    Buffer.concat([
      Buffer.from(
        `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray ` +
          `/BitsPerComponent 8 /Filter /FlateDecode /Length ${data.length} >>\nstream\n`,
      ),
      data,
      Buffer.from('\nendstream'),
    ]),
    Buffer.concat([Buffer.from(`<< /Length ${content.length} >>\nstream\n`), content, Buffer.from('\nendstream')]),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let at = parts[0]!.length;
  objects.forEach((body, i) => {
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    offsets.push(at);
    parts.push(obj);
    at += obj.length;
  });
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`;
  parts.push(Buffer.from(xref));
  return Buffer.concat(parts);
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
