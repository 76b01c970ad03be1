import winkNLP, { type ItemEntity, type ItemSentence, type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

/** A page's text as the worker gets it. */
export interface SourcePage {
  page: number;
  label: string;
  text: string;
}

export type AnswerKind = 'term' | 'date' | 'number' | 'name';

/** A card made from a sentence, with what it asks for (the quiz uses `answer` and `answerKind`). */
export interface MadeCard {
  kind: 'term' | 'cloze';
  front: string;
  back: string;
  page: number;
  pageLabel: string;
  answer: string;
  answerKind: AnswerKind;
  /** The sentence with the answer blanked (the quiz's prompt). */
  prompt: string;
}

export interface MadeCards {
  cards: MadeCard[];
  /** The last page read when the time budget ended the reading early; null when every page was read. */
  stoppedAtPage: number | null;
}

export const BLANK = '_____';
/** Characters of one page that are read (a longer page is cut): keeps any one page's cost bounded. */
const PAGE_CHARS = 20_000;
const CARDS_PER_PAGE = 12;
const MIN_WORDS = 5;
const MAX_WORDS = 45;
/** Runs of non-blanks longer than this are no words: wink rescans them (quadratic), so they go. */
const LONGEST_WORD = 40;

let nlp: WinkMethods | null = null;
const getNlp = () => (nlp ??= winkNLP(model, ['sbd', 'pos', 'ner']));

const NUMBER_ENTITIES = new Set(['CARDINAL', 'PERCENT', 'MONEY', 'DURATION', 'ORDINAL']);
const DATE_ENTITIES = new Set(['DATE', 'TIME']);
const ARTICLES = new Set(['a', 'an', 'the']);
/** What follows a defined term, longest first. */
const DEFINING = [
  ['is', 'defined', 'as'],
  ['is', 'called'],
  ['refers', 'to'],
  ['is'],
  ['are'],
  ['means'],
  ['describes'],
];
const TERM_WORD = /^[a-z][a-z0-9-]*$/i;
const LEADING_NOISE = new Set(['this', 'that', 'it', 'they', 'these', 'those', 'there', 'he', 'she', 'which', 'what']);

/**
 * Readable prose of a page, or '' for symbol soup: blanks collapse to one space (wink slows down on long blank
 * stretches), over-long runs of non-blanks go, and a page whose non-blank characters are mostly not letters is
 * skipped whole.
 */
export function readablePage(text: string): string {
  const cut = text.slice(0, PAGE_CHARS);
  let letters = 0;
  let other = 0;
  for (let i = 0; i < cut.length; i++) {
    const c = cut.charCodeAt(i);
    if (c <= 32) continue;
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c >= 0xc0) letters++;
    else other++;
  }
  if (letters < 20 || letters < other) return '';
  return cut
    .split(/\s+/)
    .filter((w) => w.length <= LONGEST_WORD)
    .join(' ')
    .trim();
}

const wordCount = (s: string) => s.split(' ').filter(Boolean).length;
const letterShare = (s: string) =>
  (s.match(/[A-Za-z\u00c0-\uffff]/g)?.length ?? 0) / Math.max(1, s.replace(/\s/g, '').length);

/** A key term and its defining sentence ("X is a ..."), or null. */
function termCard(sentence: string, firstPos: string, at: SourcePage): MadeCard | null {
  const words = sentence.split(' ');
  const first = ARTICLES.has(words[0]!.toLowerCase()) ? 1 : 0;
  // A term of one to four words, then "is", "are", "refers to", … and a definition of some length.
  for (let end = first + 1; end <= first + 4 && end < words.length; end++) {
    if (!TERM_WORD.test(words[end - 1]!)) return null;
    const verb = DEFINING.find((v) => v.every((w, i) => words[end + i]?.toLowerCase() === w));
    if (!verb) continue;
    const definition = words.slice(end + verb.length).join(' ');
    if (definition.length < 12) return null;
    const term = words.slice(first, end).join(' ');
    if (LEADING_NOISE.has(words[first]!.toLowerCase()) || !['NOUN', 'PROPN', 'DET', 'ADJ'].includes(firstPos)) {
      return null;
    }
    return {
      kind: 'term',
      front: term,
      back: sentence,
      page: at.page,
      pageLabel: at.label,
      answer: term,
      answerKind: 'term',
      prompt: sentence.replace(term, BLANK),
    };
  }
  return null;
}

/** What in a sentence is worth blanking out: a date, then a number, then a name (a proper-noun run). */
function clozeTarget(s: ItemSentence, its: WinkMethods['its']): { text: string; kind: AnswerKind } | null {
  let number: string | null = null;
  let date: string | null = null;
  s.entities().each((e: ItemEntity) => {
    const type = e.out(its.type);
    const text = e.out();
    if (!date && DATE_ENTITIES.has(type)) date = text;
    else if (!number && NUMBER_ENTITIES.has(type) && /\d/.test(text)) number = text;
  });
  if (date) return { text: date, kind: 'date' };
  if (number) return { text: number, kind: 'number' };
  const tokens = s.tokens();
  const values = tokens.out();
  const tags = tokens.out(its.pos);
  let best: string[] = [];
  let run: string[] = [];
  for (let i = 0; i <= values.length; i++) {
    const tag = tags[i];
    const joiner = tag === 'ADP' && values[i] === 'of' && run.length && tags[i + 1] === 'PROPN';
    if (i < values.length && (tag === 'PROPN' || joiner) && /^[A-Z]/.test(values[i]!) === (tag === 'PROPN')) {
      run.push(values[i]!);
      continue;
    }
    // A single capitalised word opening the sentence is too often not a name.
    const startsSentence = i - run.length === 0;
    if (run.length > best.length && !(startsSentence && run.length === 1)) best = run;
    run = [];
  }
  const name = best.join(' ');
  return name.length >= 3 ? { text: name, kind: 'name' } : null;
}

/**
 * Cards from pages, in page and sentence order, the same cards for the same pages every time. Reading stops at
 * `deadline` (ms since the epoch) with what was made so far, and at `max` cards.
 */
export function makeCards(pages: SourcePage[], opts: { deadline: number; max: number; now?: () => number }): MadeCards {
  const now = opts.now ?? Date.now;
  const cards: MadeCard[] = [];
  const seen = new Set<string>();
  const its = getNlp().its;
  for (const at of pages) {
    if (cards.length >= opts.max) break;
    if (now() >= opts.deadline) return { cards, stoppedAtPage: Math.max(0, at.page - 1) };
    const text = readablePage(at.text);
    if (!text) continue;
    let onPage = 0;
    const doc = getNlp().readDoc(text);
    doc.sentences().each((s: ItemSentence) => {
      if (onPage >= CARDS_PER_PAGE || cards.length >= opts.max) return;
      const sentence = s.out().trim();
      const words = wordCount(sentence);
      if (words < MIN_WORDS || words > MAX_WORDS || letterShare(sentence) < 0.6 || sentence.includes(BLANK)) return;
      const firstPos = s.tokens().itemAt(0).out(its.pos);
      let card = termCard(sentence, firstPos, at);
      if (!card) {
        const target = clozeTarget(s, its);
        if (!target || !sentence.includes(target.text)) return;
        const prompt = sentence.replace(target.text, BLANK);
        card = {
          kind: 'cloze',
          front: prompt,
          back: target.text,
          page: at.page,
          pageLabel: at.label,
          answer: target.text,
          answerKind: target.kind,
          prompt,
        };
      }
      const key = card.front.toLowerCase();
      if (seen.has(key)) return;
      seen.add(key);
      cards.push(card);
      onPage++;
    });
  }
  return { cards, stoppedAtPage: null };
}
