import { createInflate, createInflateRaw } from 'node:zlib';
import { MSG } from '@studybuddy/shared/messages';
import { ExtractionError } from './extract-types.ts';

/** Caps on a ZIP container (DOCX, PPTX, XLSX) checked before any parser inflates it. */
export interface ZipLimits {
  maxEntries: number;
  /** Largest inflated entry. */
  maxEntryBytes: number;
  /** All entries inflated together. */
  maxTotalBytes: number;
  /** Largest inflated/compressed ratio of an entry bigger than `ratioFloorBytes` (text XML stays well under 100). */
  maxRatio: number;
  ratioFloorBytes: number;
}

export const OFFICE_ZIP_LIMITS: ZipLimits = {
  maxEntries: 10_000,
  maxEntryBytes: 64 * 2 ** 20,
  maxTotalBytes: 256 * 2 ** 20,
  maxRatio: 200,
  ratioFloorBytes: 2 ** 20,
};

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const U32_MAX = 0xffffffff;

const unreadable = () => new ExtractionError('unreadable', MSG.courses.unreadableFile);
const tooLarge = () => new ExtractionError('unreadable', MSG.courses.tooLargeToRead);

interface Entry {
  method: number;
  compressed: number;
  size: number;
  localOffset: number;
}

function endRecord(zip: Buffer): number {
  const stop = Math.max(0, zip.length - 22 - 0xffff);
  for (let i = zip.length - 22; i >= stop; i--) if (zip.readUInt32LE(i) === EOCD) return i;
  throw unreadable();
}

/** The central directory's entries, with zip64 sizes read from their extra field. */
function centralEntries(zip: Buffer, limits: ZipLimits): Entry[] {
  const end = endRecord(zip);
  const declared = zip.readUInt16LE(end + 10);
  if (declared > limits.maxEntries) throw tooLarge();
  let at = zip.readUInt32LE(end + 16);
  const entries: Entry[] = [];
  while (at + 46 <= zip.length && zip.readUInt32LE(at) === CENTRAL) {
    if (entries.length >= limits.maxEntries) throw tooLarge();
    const flags = zip.readUInt16LE(at + 8);
    const nameLen = zip.readUInt16LE(at + 28);
    const extraLen = zip.readUInt16LE(at + 30);
    const commentLen = zip.readUInt16LE(at + 32);
    const entry: Entry = {
      method: zip.readUInt16LE(at + 10),
      compressed: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24),
      localOffset: zip.readUInt32LE(at + 42),
    };
    if (flags & 1) throw unreadable(); // encrypted
    readZip64(zip, at + 46 + nameLen, extraLen, entry);
    entries.push(entry);
    at += 46 + nameLen + extraLen + commentLen;
  }
  if (entries.length !== declared) throw unreadable();
  return entries;
}

function readZip64(zip: Buffer, start: number, length: number, entry: Entry) {
  const fields = (['size', 'compressed', 'localOffset'] as const).filter((f) => entry[f] === U32_MAX);
  if (!fields.length) return;
  for (let p = start; p + 4 <= start + length && p + 4 <= zip.length; ) {
    const id = zip.readUInt16LE(p);
    const len = zip.readUInt16LE(p + 2);
    if (id === 0x0001 && p + 4 + fields.length * 8 <= zip.length) {
      fields.forEach((f, i) => (entry[f] = Number(zip.readBigUInt64LE(p + 4 + i * 8))));
      return;
    }
    p += 4 + len;
  }
  throw unreadable();
}

/** Bytes deflate data (raw, or zlib-wrapped as in PDF) really inflates to: counted as it streams, stopped past `limit`. */
export function inflatedSize(data: Buffer, limit: number, format: 'raw' | 'zlib' = 'raw'): Promise<number> {
  return new Promise((resolve) => {
    const inflate = format === 'raw' ? createInflateRaw() : createInflate();
    let n = 0;
    inflate.on('data', (chunk: Buffer) => {
      n += chunk.length;
      if (n > limit) {
        inflate.destroy();
        resolve(n);
      }
    });
    inflate.on('end', () => resolve(n));
    // Corrupt data: the parser will say so; only the size matters here.
    inflate.on('error', () => resolve(n));
    inflate.end(data);
  });
}

/**
 * Refuses a ZIP bomb before a parser inflates it: too many entries, or entries too large or too compressed by
 * what the central directory declares, then by what the data really inflates to (declared sizes can lie).
 */
export async function checkZip(bytes: Uint8Array, limits: ZipLimits = OFFICE_ZIP_LIMITS): Promise<void> {
  const zip = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (zip.length < 22) throw unreadable();
  const entries = centralEntries(zip, limits);
  let declaredTotal = 0;
  for (const e of entries) {
    if (e.method !== 0 && e.method !== 8) throw unreadable();
    declaredTotal += e.size;
    if (e.size > limits.maxEntryBytes || declaredTotal > limits.maxTotalBytes) throw tooLarge();
    if (e.size > limits.ratioFloorBytes && e.size / Math.max(1, e.compressed) > limits.maxRatio) throw tooLarge();
  }
  let total = 0;
  for (const e of entries) {
    const at = e.localOffset;
    if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL) throw unreadable();
    const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
    if (start + e.compressed > zip.length) throw unreadable();
    const data = zip.subarray(start, start + e.compressed);
    // Never more than the entry declared: a parser sizes its buffers by that.
    const size = e.method === 0 ? data.length : await inflatedSize(data, e.size);
    total += size;
    if (size > e.size || total > limits.maxTotalBytes) throw tooLarge();
  }
}
