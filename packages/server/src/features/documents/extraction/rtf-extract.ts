import { TextDecoder } from 'node:util';
import { MSG } from '@studybuddy/shared/messages';
import { ExtractionError, type ExtractedPage } from './extract-types.ts';
import { sections } from './sections.ts';

/** Deeper group nesting than any editor writes: refused rather than followed. */
export const RTF_MAX_DEPTH = 1_000;

/** Groups whose text is not the document's (tables of fonts, colours and styles, metadata, pictures, fields' code). */
const SKIPPED = new Set([
  'fonttbl',
  'colortbl',
  'stylesheet',
  'info',
  'pict',
  'object',
  'themedata',
  'colorschememapping',
  'latentstyles',
  'datastore',
  'xmlnstbl',
  'listtable',
  'listoverridetable',
  'rsidtbl',
  'generator',
  'filetbl',
  'revtbl',
  'fldinst',
  'header',
  'footer',
  'headerl',
  'headerr',
  'headerf',
  'footerl',
  'footerr',
  'footerf',
  'footnote',
  'shppict',
  'nonshppict',
  'bkmkstart',
  'bkmkend',
]);

const WORD_TEXT: Record<string, string> = {
  par: '\n',
  line: '\n',
  sect: '\n\n',
  page: '\n\n',
  row: '\n',
  cell: '\t',
  tab: '\t',
  emdash: '\u2014',
  endash: '\u2013',
  bullet: '\u2022',
  lquote: '\u2018',
  rquote: '\u2019',
  ldblquote: '\u201C',
  rdblquote: '\u201D',
  emspace: ' ',
  enspace: ' ',
  qmspace: ' ',
};

const CODE_PAGES: Record<number, string> = {
  437: 'ibm866',
  932: 'shift_jis',
  936: 'gbk',
  949: 'euc-kr',
  950: 'big5',
  10000: 'macintosh',
  65001: 'utf-8',
};

function decoderFor(codePage: number): TextDecoder {
  const label = CODE_PAGES[codePage] ?? `windows-${codePage}`;
  try {
    return new TextDecoder(label);
  } catch {
    return new TextDecoder('windows-1252');
  }
}

interface Group {
  skip: boolean;
  /** Characters of fallback after a \uN (set by \ucN, kept by nested groups). */
  uc: number;
}

const isLetter = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/**
 * RTF as plain text, in one pass over its bytes: groups, control words and symbols, `\'hh` bytes in the
 * document's code page (`\ansicpg`), `\uN` characters with their fallback skipped, and destinations that hold
 * no text (font and colour tables, styles, info, pictures, ignorable `\*` groups) left out.
 */
export function rtfToText(bytes: Uint8Array): string {
  const src = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!src.subarray(0, 64).toString('latin1').trimStart().startsWith('{\\rtf')) {
    throw new ExtractionError('unreadable', MSG.courses.unreadableFile);
  }
  let decoder = decoderFor(1252);
  const out: string[] = [];
  let pending: number[] = [];
  const flush = () => {
    if (pending.length) out.push(decoder.decode(Uint8Array.from(pending)));
    pending = [];
  };
  const stack: Group[] = [];
  let group: Group = { skip: false, uc: 1 };
  /** Fallback characters still to drop after a \uN. */
  let toSkip = 0;
  /** The next control word opens an ignorable destination (`{\*\name`). */
  let starred = false;
  /** The first control word of the group just opened (a destination names itself there). */
  let groupStart = false;
  const emitByte = (b: number) => {
    if (toSkip > 0) return void toSkip--;
    if (!group.skip) pending.push(b);
  };
  const emit = (s: string) => {
    if (toSkip > 0) return void toSkip--;
    if (group.skip) return;
    flush();
    out.push(s);
  };

  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === 0x7b) {
      // {
      if (stack.length >= RTF_MAX_DEPTH) throw new ExtractionError('unreadable', MSG.courses.unreadableFile);
      stack.push(group);
      group = { ...group };
      groupStart = true;
      toSkip = 0;
      i++;
      continue;
    }
    if (c === 0x7d) {
      // }
      group = stack.pop() ?? group;
      groupStart = false;
      starred = false;
      toSkip = 0;
      i++;
      continue;
    }
    if (c === 0x0d || c === 0x0a) {
      i++;
      continue;
    }
    if (c !== 0x5c) {
      emitByte(c);
      groupStart = false;
      i++;
      continue;
    }
    // A backslash: a control symbol or a control word.
    const next = src[i + 1];
    if (next === undefined) break;
    if (!isLetter(next)) {
      i += 2;
      const atStart: boolean = groupStart;
      groupStart = false;
      if (next === 0x27) {
        // \'hh
        const hex = src.subarray(i, i + 2).toString('latin1');
        i += 2;
        if (/^[0-9a-fA-F]{2}$/.test(hex)) emitByte(parseInt(hex, 16));
      } else if (next === 0x2a) {
        // \*
        starred = true;
        groupStart = atStart;
      } else if (next === 0x5c || next === 0x7b || next === 0x7d) emitByte(next);
      else if (next === 0x7e) emit('\u00A0');
      else if (next === 0x5f) emit('-');
      else if (next === 0x0a || next === 0x0d) emit('\n');
      // \- (optional hyphen), \| and others: nothing to show
      continue;
    }
    let j = i + 1;
    while (j < src.length && j - i <= 32 && isLetter(src[j]!)) j++;
    const word = src.subarray(i + 1, j).toString('latin1');
    let k = j;
    if (src[k] === 0x2d) k++;
    while (k < src.length && k - j <= 11 && isDigit(src[k]!)) k++;
    const hasParam = k > j && isDigit(src[k - 1]!);
    const param = hasParam ? Number(src.subarray(j, k).toString('latin1')) : undefined;
    if (!hasParam) k = j;
    if (src[k] === 0x20) k++;
    i = k;

    // A destination: `{\*\name …}` we do not know, or one that holds no text.
    if (groupStart && (starred || SKIPPED.has(word))) group.skip = true;
    groupStart = false;
    starred = false;
    if (word === 'u' && param !== undefined) {
      emit(String.fromCharCode(param < 0 ? param + 65536 : param));
      toSkip = group.uc;
    } else if (word === 'uc' && param !== undefined) {
      group.uc = Math.max(0, Math.min(param, 10));
    } else if (word === 'ansicpg' && param !== undefined) {
      flush();
      decoder = decoderFor(param);
    } else if (word === 'bin' && param !== undefined) {
      i += Math.max(0, param);
    } else if (WORD_TEXT[word] !== undefined) {
      emit(WORD_TEXT[word]);
    }
  }
  flush();
  return out.join('');
}

export async function extractRtf(bytes: Uint8Array): Promise<ExtractedPage[]> {
  return Promise.resolve(sections(rtfToText(bytes)));
}
