import { MSG } from '@studybuddy/shared/messages';
import { ExtractionError } from './extract-types.ts';
import { inflatedSize } from './zip-limits.ts';

/** Largest inflated stream that is not an image: far beyond any page's drawing commands or an embedded font. */
export const PDF_STREAM_MAX_BYTES = 64 * 2 ** 20;
/** How far back from `stream` its dictionary is looked for. */
const DICT_WINDOW = 64 * 1024;

const FLATE = /\/(?:FlateDecode|Fl)(?![\w.-])/;
const IMAGE = /\/Subtype\s*\/Image(?![\w.-])/;
const LENGTH = /\/Length\s+(\d+)(?!\s+\d+\s+R)/;

/** Readers (Acrobat among them) look for the `%PDF-` header within the first 1024 bytes. */
export const PDF_HEADER_WINDOW = 1024;

/**
 * Whether the bytes can be a PDF at all. Without a header pdf.js still rebuilds a cross-reference table by
 * scanning the whole file: seconds and hundreds of MB for 25 MB of anything else named .pdf.
 */
export function hasPdfHeader(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, PDF_HEADER_WINDOW));
  return head.includes('%PDF-', 0, 'latin1');
}

/** A name may spell characters as #xx (pdf.js reads /Fl#61teDecode as /FlateDecode). */
const unescapeNames = (dict: string) =>
  dict.replace(/#([0-9a-fA-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/**
 * Refuses a PDF whose Flate streams inflate beyond any real document's before pdf.js reads it: pdf.js inflates a
 * page's content or a font stream whole, however large (a 1 MB file can unpack to gigabytes). Image streams may
 * hold up to `maxPixels` of 32-bit pixels (pdf.js reads no more of them than their size needs).
 */
export async function checkPdfStreams(bytes: Uint8Array, maxPixels: number): Promise<void> {
  const pdf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let pos = 0; ; ) {
    const at = pdf.indexOf('stream', pos, 'latin1');
    if (at < 0) return;
    pos = at + 6;
    if (at >= 3 && pdf.toString('latin1', at - 3, at) === 'end') continue;
    const eol = pdf[pos] === 0x0d ? (pdf[pos + 1] === 0x0a ? 2 : 1) : pdf[pos] === 0x0a ? 1 : 0;
    if (!eol) continue;
    const start = pos + eol;
    const obj = pdf.lastIndexOf('obj', at, 'latin1');
    const dict = unescapeNames(
      pdf.toString('latin1', obj >= 0 && at - obj < DICT_WINDOW ? obj : Math.max(0, at - 4096), at),
    );
    if (!FLATE.test(dict)) continue;
    const declared = LENGTH.exec(dict);
    const length = declared ? Number(declared[1]) : -1;
    const byLength =
      length >= 0 &&
      start + length <= pdf.length &&
      /^\s*endstream/.test(pdf.toString('latin1', start + length, start + length + 16));
    const endstream = pdf.indexOf('endstream', start, 'latin1');
    const end = byLength ? start + length : endstream < 0 ? pdf.length : endstream;
    const cap = IMAGE.test(dict) ? Math.max(PDF_STREAM_MAX_BYTES, maxPixels * 4) : PDF_STREAM_MAX_BYTES;
    if ((await inflatedSize(pdf.subarray(start, end), cap, 'zlib')) > cap) {
      throw new ExtractionError('unreadable', MSG.courses.tooLargeToRead);
    }
    pos = end;
  }
}
