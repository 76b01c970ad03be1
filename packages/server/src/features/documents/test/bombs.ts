// Decompression bombs for tests and benchmarks: small files that declare or unpack to huge sizes, made on the spot.
import { createDeflateRaw, crc32, deflateRawSync, deflateSync } from 'node:zlib';

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A valid PNG header declaring width × height RGB pixels, with only a few rows of (zero) data. */
export function pngBomb(width = 30_000, height = 30_000, rows = 64): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const raw = Buffer.alloc(Math.min(rows, height) * (1 + width * 3));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
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
  add(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  const imageData = deflateSync(Buffer.alloc(1 << 20), { level: 9 });
  const { width = 1, height = 1 } = opts.image ?? {};
  add(
    Buffer.concat([
      Buffer.from(
        `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB ` +
          `/BitsPerComponent 8 /Filter /FlateDecode /Length ${imageData.length} >>\nstream\n`,
      ),
      imageData,
      Buffer.from('\nendstream'),
    ]),
  );
  for (let i = 0; i < pages; i++) {
    add(
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R /Resources << ' +
        '/XObject << /Im1 4 0 R >> /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>',
    );
  }
  return writePdf(objects);
}

/** A PDF of numbered objects (object n is `objects[n - 1]`, 1 the catalog) with a correct xref table. */
function writePdf(objects: (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.from(body), Buffer.from('\nendobj\n')]);
    parts.push(obj);
    offset += obj.length;
  });
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`;
  parts.push(Buffer.from(xref));
  return Buffer.concat(parts);
}

/** A one-page PDF whose page content is a Flate stream of `size` zero bytes (about size / 1000 in the file). */
export async function pdfContentBomb(size: number): Promise<Buffer> {
  // FlateDecode is zlib-wrapped: a header, the raw deflate data, and a checksum pdf.js does not check.
  const data = Buffer.concat([Buffer.from([0x78, 0xda]), await deflatedZeros(size), Buffer.alloc(4)]);
  return writePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << >> >>',
    Buffer.concat([
      Buffer.from(`<< /Length ${data.length} /Filter /Fl#61teDecode >>\nstream\n`),
      data,
      Buffer.from('\nendstream'),
    ]),
  ]);
}

/** Raw deflate of `size` zero bytes, streamed (never holds the uncompressed data). */
export async function deflatedZeros(size: number): Promise<Buffer> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  const chunk = Buffer.alloc(Math.min(size, 1 << 20));
  for (let left = size; left > 0; left -= chunk.length) {
    const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
    if (!deflate.write(piece)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

export interface ZipEntry {
  name: string;
  /** Raw-deflated data (method 8). */
  deflated: Buffer;
  /** What the headers declare; the truth only when the caller says so. */
  size: number;
  crc: number;
}

export const zipEntry = (name: string, data: Buffer): ZipEntry => ({
  name,
  deflated: deflateRawSync(data),
  size: data.length,
  crc: crc32(data),
});

/** A minimal ZIP (local headers, central directory, end record) of already deflated entries. */
export function writeZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(e.crc >>> 0, 14);
    local.writeUInt32LE(e.deflated.length, 18);
    local.writeUInt32LE(e.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(e.crc >>> 0, 16);
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

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ' +
  'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" ' +
  'Target="word/document.xml"/></Relationships>';

/**
 * A DOCX whose word/document.xml inflates to `size` zero bytes. `declare` sets the size its headers claim
 * ('true' by default; a lie of a few bytes hides the bomb from a check of the declared sizes alone).
 */
export async function docxBomb(size: number, declare: 'true' | 'lie' = 'true'): Promise<Buffer> {
  const deflated = await deflatedZeros(size);
  return writeZip([
    zipEntry('[Content_Types].xml', Buffer.from(CONTENT_TYPES)),
    zipEntry('_rels/.rels', Buffer.from(RELS)),
    { name: 'word/document.xml', deflated, size: declare === 'true' ? size : 1000, crc: 0 },
  ]);
}

/** A ZIP with `count` empty entries (bounds the entry count). */
export function manyEntriesZip(count: number): Buffer {
  const empty = deflateRawSync(Buffer.alloc(0));
  return writeZip(Array.from({ length: count }, (_, i) => ({ name: `x/${i}.xml`, deflated: empty, size: 0, crc: 0 })));
}
