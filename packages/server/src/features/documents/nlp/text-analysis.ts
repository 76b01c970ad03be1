import winkNLP, { type ItemSentence, type ItsFunction, type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

/** A sentence of a text with its character offsets and the stems of its content words. */
export interface Sentence {
  text: string;
  start: number;
  end: number;
  /** Stems of content words (no stop words, no punctuation). */
  terms: string[];
  /** Noun phrases (1–3 words) in their surface form, for key terms. */
  phrases: string[];
  words: number;
}

let nlp: WinkMethods | null = null;
// Only the annotations read here: sentence boundaries and parts of speech (named entities, negation and
// sentiment change neither, and cost a pass over every token each).
const getNlp = () => (nlp ??= winkNLP(model, ['sbd', 'pos']));

/** Words that say what kind of question it is rather than what it is about. */
const QUESTION_NOISE = new Set([
  'what',
  'when',
  'where',
  'who',
  'whom',
  'why',
  'how',
  'which',
  'whose',
  'document',
  'file',
  'text',
  'please',
  'tell',
  'explain',
  'describ',
  'mention',
  'say',
  'accord',
  'give',
  'list',
  'find',
  'anyth',
  'someth',
]);

const NOUNISH = new Set(['NOUN', 'PROPN', 'ADJ']);
/** "'s", "’s", "'": a possessive, not a word of the question or the text. */
const POSSESSIVE = /^['’]s?$/;
const MARKS = /\p{M}/gu;

/** A stem without accents ("Ögedei" and "Ogedei" are one name); plain ASCII is returned as is. */
export function foldMarks(stem: string): string {
  // eslint-disable-next-line no-control-regex
  return /^[\u0000-\u007f]*$/.test(stem) ? stem : stem.normalize('NFD').replace(MARKS, '');
}
const MAX_TOKENS_PER_CALL = 200_000;

/** JavaScript's `\s`: blanks and line breaks. */
function isBlank(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Longest run of non-blanks wink reads as is; longer ones (no word is) are cut with spaces. */
const MAX_RUN = 100;

/**
 * The text as wink should read it, of the same length so offsets carry over. wink takes quadratic time on
 * two shapes: a long run of non-blanks (its e-mail pattern rescans the run from each character) and many
 * blank lines (its pattern automaton walks over all the line breaks again from each one). So a long run is
 * cut every 100 characters, and a blank stretch keeps at most two line breaks (a paragraph break), then spaces.
 */
export function forWink(text: string): string {
  const parts: string[] = [];
  let copied = 0;
  const replace = (start: number, end: number, by: string) => {
    parts.push(text.slice(copied, start), by);
    copied = end;
  };
  let i = 0;
  while (i < text.length) {
    const start = i;
    if (isBlank(text.charCodeAt(i))) {
      let breaks = 0;
      let plain = true;
      for (; i < text.length && isBlank(text.charCodeAt(i)); i++) {
        const c = text.charCodeAt(i);
        if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) breaks++;
        if (c !== 32) plain = false;
      }
      if (plain) continue;
      const kept = Math.min(2, breaks);
      const by = '\n'.repeat(kept) + ' '.repeat(i - start - kept);
      if (by !== text.slice(start, i)) replace(start, i, by);
      continue;
    }
    while (i < text.length && !isBlank(text.charCodeAt(i))) i++;
    for (let cut = start + MAX_RUN; cut < i; cut += MAX_RUN + 1) {
      // Never split a surrogate pair: a whole pair becomes two spaces.
      const c = text.charCodeAt(cut);
      if (c >= 0xdc00 && c <= 0xdfff) cut++;
      if (cut >= i) break;
      const pair = text.charCodeAt(cut) >= 0xd800 && text.charCodeAt(cut) <= 0xdbff && cut + 1 < i;
      replace(cut, cut + (pair ? 2 : 1), pair ? '  ' : ' ');
      if (pair) cut++;
    }
  }
  if (!copied) return text;
  parts.push(text.slice(copied));
  return parts.join('');
}

/**
 * What reading a text costs wink, in units of about a microsecond: a word is one, and so is cheap punctuation,
 * but any other symbol costs twenty (wink splits `<a`, `"a`, `a/b` on a path 5–30 times slower per token).
 * Prose of the longest allowed text costs under half the budget; a text made of symbols is read up to the
 * budget and the rest is left out, so its summary or answer still comes within a second.
 */
export const READ_BUDGET = 400_000;
const SYMBOL_COST = 20;
const CHEAP = new Set([...'.,;:!?'].map((c) => c.charCodeAt(0)));

/** The length of the text's beginning that fits the read budget (the whole text, for prose). */
export function readableLength(text: string, budget = READ_BUDGET): number {
  let cost = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isBlank(c)) {
      inWord = false;
      continue;
    }
    const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c >= 128;
    if (alnum) {
      if (!inWord) cost++;
      inWord = true;
    } else {
      cost += CHEAP.has(c) ? 1 : SYMBOL_COST;
      inWord = false;
    }
    if (cost > budget) return i;
  }
  return text.length;
}

/** How far past the previous sentence the next one is looked for (after any blanks). */
const LOOK_AHEAD = 64;

/** Where a sentence wink gave back starts in its text: near `from`, so the whole pass stays linear. */
function locate(haystack: string, needle: string, from: number): number {
  while (from < haystack.length && isBlank(haystack.charCodeAt(from))) from++;
  const window = haystack.slice(from, from + needle.length + LOOK_AHEAD);
  const exact = window.indexOf(needle);
  if (exact >= 0) return from + exact;
  const approx = window.indexOf(needle.slice(0, Math.min(24, needle.length)));
  return approx >= 0 ? from + approx : from;
}

/** Splits a text into sentences (wink-nlp), with offsets into the text and their content-word stems. */
export function analyse(text: string): Sentence[] {
  const out: Sentence[] = [];
  const nlp = getNlp();
  const its = nlp.its;
  // wink is fastest on moderate inputs: feed it paragraph blocks of bounded size.
  const blocks = splitBlocks(forWink(text.slice(0, readableLength(text))), MAX_TOKENS_PER_CALL);
  for (const block of blocks) {
    const doc = nlp.readDoc(block.text);
    // Each property read once for all tokens, rather than through an item object per token and property.
    const tokens = doc.tokens();
    const values = tokens.out();
    const types = tokens.out(its.type);
    const stops = tokens.out(its.stopWordFlag) as unknown as boolean[];
    const normals = tokens.out(its.normal);
    const tags = tokens.out(its.pos);
    // A stem depends on the token's text alone; only content words need one.
    const stems = new Map<string, string>();
    const stemAt = (i: number) => {
      let stem = stems.get(values[i]!);
      if (stem === undefined) {
        stem = foldMarks(tokens.itemAt(i).out(its.stem as unknown as ItsFunction<string>));
        stems.set(values[i]!, stem);
      }
      return stem;
    };
    let cursor = 0;
    doc.sentences().each((s: ItemSentence) => {
      const trimmed = s.out().trim();
      if (!trimmed) return;
      const at = locate(block.text, trimmed, cursor);
      cursor = at + trimmed.length;
      const terms: string[] = [];
      const phrases: string[] = [];
      let run: string[] = [];
      let runEndsNoun = false;
      let words = 0;
      const flush = () => {
        if (run.length && runEndsNoun) phrases.push(run.slice(-3).join(' '));
        run = [];
        runEndsNoun = false;
      };
      const [first, last] = s.out(its.span) as unknown as [number, number];
      for (let i = first; i <= last; i++) {
        const type = types[i];
        if (type !== 'word' && type !== 'number' && type !== 'ordinal') {
          flush();
          continue;
        }
        words++;
        const stop = stops[i];
        const normal = normals[i]!;
        if (!stop && type === 'word' && normal.length > 1) {
          if (!POSSESSIVE.test(normal)) terms.push(stemAt(i));
        } else if (type !== 'word') terms.push(normal);
        const pos = tags[i]!;
        if (!stop && NOUNISH.has(pos) && type === 'word' && normal.length > 2) {
          run.push(values[i]!);
          runEndsNoun = pos !== 'ADJ';
        } else flush();
      }
      flush();
      const start = block.offset + at;
      const end = Math.min(text.length, start + trimmed.length);
      out.push({ text: text.slice(start, end), start, end, terms, phrases, words });
    });
  }
  return out;
}

/** Content-word stems of a question, without the words that only make it a question. */
export function queryTerms(question: string): string[] {
  const terms = analyse(question).flatMap((s) => s.terms);
  return [...new Set(terms.filter((t) => !QUESTION_NOISE.has(t)))];
}

/** Paragraph-aligned blocks of roughly `maxChars / 5` words each, with their offsets. */
function splitBlocks(text: string, maxTokens: number): { text: string; offset: number }[] {
  const maxChars = maxTokens * 5;
  if (text.length <= maxChars) return [{ text, offset: 0 }];
  const blocks: { text: string; offset: number }[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + maxChars);
    if (end < text.length) {
      // Only the block's second half is searched: a text without paragraph breaks is not rescanned.
      const half = start + maxChars / 2;
      const para = text.slice(half, end).lastIndexOf('\n\n');
      if (para > 0) end = half + para;
    }
    blocks.push({ text: text.slice(start, end), offset: start });
    start = end;
  }
  return blocks;
}
