import winkNLP, { type ItemSentence, type ItemToken, type ItsFunction, type WinkMethods } from 'wink-nlp';
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
const getNlp = () => (nlp ??= winkNLP(model));

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
const MAX_TOKENS_PER_CALL = 200_000;

function locate(haystack: string, needle: string, from: number): number {
  const exact = haystack.indexOf(needle, from);
  if (exact >= 0) return exact;
  const head = needle.slice(0, Math.min(24, needle.length));
  const approx = haystack.indexOf(head, from);
  return approx >= 0 ? approx : from;
}

/** Splits a text into sentences (wink-nlp), with offsets into the text and their content-word stems. */
export function analyse(text: string): Sentence[] {
  const out: Sentence[] = [];
  // wink is fastest on moderate inputs: feed it paragraph blocks of bounded size.
  const blocks = splitBlocks(text, MAX_TOKENS_PER_CALL);
  for (const block of blocks) {
    const doc = getNlp().readDoc(block.text);
    const its = getNlp().its;
    let cursor = 0;
    doc.sentences().each((s: ItemSentence) => {
      const raw = s.out();
      const at = locate(block.text, raw, cursor);
      cursor = at + raw.length;
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
      s.tokens().each((tok: ItemToken) => {
        const type = tok.out(its.type);
        if (type !== 'word' && type !== 'number' && type !== 'ordinal') {
          flush();
          return;
        }
        words++;
        const stop = tok.out(its.stopWordFlag) as unknown as boolean;
        const normal = tok.out(its.normal);
        if (!stop && type === 'word' && normal.length > 1)
          terms.push(tok.out(its.stem as unknown as ItsFunction<string>));
        else if (type !== 'word') terms.push(normal);
        const pos = tok.out(its.pos);
        if (!stop && NOUNISH.has(pos) && type === 'word' && normal.length > 2) {
          run.push(tok.out());
          runEndsNoun = pos !== 'ADJ';
        } else flush();
      });
      flush();
      const trimmed = raw.trim();
      if (trimmed) {
        const lead = raw.indexOf(trimmed);
        out.push({
          text: trimmed,
          start: block.offset + at + lead,
          end: block.offset + at + lead + trimmed.length,
          terms,
          phrases,
          words,
        });
      }
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
      const para = text.lastIndexOf('\n\n', end);
      if (para > start + maxChars / 2) end = para;
    }
    blocks.push({ text: text.slice(start, end), offset: start });
    start = end;
  }
  return blocks;
}
