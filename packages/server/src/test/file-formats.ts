// Hand-written PNG, ZIP (DOCX) and PDF containers, for the hostile files tests and benchmarks make on the spot
// (features/documents/test/bombs.ts, test/hostile-payloads.ts).
import { constants, crc32, deflateRawSync } from 'node:zlib';

const ZERO_RUN = 4 * 1024 * 1024;
/** Deflated on its own and ended with a full flush: byte-aligned and referring to nothing before it. */
const selfContained = (data: Buffer) => deflateRawSync(data, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
let zeroRun: Buffer | undefined;

/**
 * Deflates `prefix` then `zeros` zero bytes, raw or zlib-wrapped, without ever holding the uncompressed data;
 * also answers the CRC-32 of everything deflated. The zeros are one deflated run of 4 MB repeated (each run
 * self-contained, so the copies follow each other in one valid stream): a 1 GB bomb takes milliseconds to make
 * instead of deflating 1 GB (15 s of a core).
 */
export async function deflateZeros(
  zeros: number,
  { prefix = Buffer.alloc(0), zlib = false }: { prefix?: Buffer; zlib?: boolean } = {},
): Promise<{ data: Buffer; crc: number }> {
  zeroRun ??= selfContained(Buffer.alloc(ZERO_RUN));
  const parts: Buffer[] = [selfContained(prefix)];
  let crc = crc32(prefix);
  const run = Buffer.alloc(Math.min(zeros, ZERO_RUN));
  for (let left = zeros; left > 0; left -= ZERO_RUN) {
    const piece = left >= ZERO_RUN ? run : run.subarray(0, left);
    parts.push(piece.length === ZERO_RUN ? zeroRun : selfContained(piece));
    crc = crc32(piece, crc);
  }
  parts.push(deflateRawSync(Buffer.alloc(0))); // the final (empty) block
  const raw = Buffer.concat(parts);
  if (!zlib) return { data: raw, crc: crc >>> 0 };
  // zlib: header (deflate, 32 KB window, best compression), the raw stream, Adler-32 of the data (big-endian).
  let a = 1;
  let b = 0;
  for (const byte of prefix) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  b = (b + ((a * zeros) % 65521)) % 65521; // each zero adds a to b
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(((b << 16) | a) >>> 0);
  return { data: Buffer.concat([Buffer.from([0x78, 0xda]), raw, adler]), crc: crc >>> 0 };
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG of one IDAT chunk (`idat`: the zlib-deflated filtered rows, as many as the caller likes). */
export function writePng(
  ihdr: { width: number; height: number; bitDepth: number; colorType: number },
  idat: Buffer,
): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(ihdr.width, 0);
  header.writeUInt32BE(ihdr.height, 4);
  header[8] = ihdr.bitDepth;
  header[9] = ihdr.colorType;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
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

/** A DOCX: the content types, the package relationship and `document` (named word/document.xml). */
export const writeDocx = (document: Omit<ZipEntry, 'name'>): Buffer =>
  writeZip([
    zipEntry('[Content_Types].xml', Buffer.from(CONTENT_TYPES)),
    zipEntry('_rels/.rels', Buffer.from(RELS)),
    { name: 'word/document.xml', ...document },
  ]);

/** A PDF of numbered objects (object n is `objects[n - 1]`, 1 the catalog) with a correct xref table. */
export function writePdf(objects: (string | Buffer)[]): Buffer {
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

/** A PDF stream object: its dictionary (which names the length), then the data. */
export const pdfStream = (dict: string, data: string | Buffer): Buffer =>
  Buffer.concat([Buffer.from(`${dict}\nstream\n`), Buffer.from(data), Buffer.from('\nendstream')]);

/** An image XObject of 8-bit samples whose data is already zlib-deflated (declared size: `width` × `height`). */
export const pdfFlateImage = (width: number, height: number, colorSpace: 'DeviceRGB' | 'DeviceGray', data: Buffer) =>
  pdfStream(
    `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /${colorSpace} ` +
      `/BitsPerComponent 8 /Filter /FlateDecode /Length ${data.length} >>`,
    data,
  );
