import { PERSON_NOUNS, type AnswerKind, type QuestionKind } from './question-kind.ts';
import { QA_MODEL } from './qa-model.ts';
import { sentenceTokens, type Token } from './sentence-tokens.ts';

/** A short answer found in a sentence: its text and offsets in the sentence, and how well it fits. */
export interface Span {
  text: string;
  start: number;
  end: number;
  score: number;
  /** Whether it is of the kind the question asks for (a date for "when", a number for "how many"…). */
  typed: boolean;
}

type Shape =
  | 'date'
  | 'year'
  | 'number'
  | 'ordinal'
  | 'duration'
  | 'name'
  | 'noun'
  | 'list'
  | 'clause'
  | 'modifier'
  | 'quoted';

interface Candidate {
  from: number;
  to: number;
  shape: Shape;
}

/** Words an answer neither starts nor ends with. */
const EDGE_POS = new Set(['ADP', 'DET', 'CCONJ', 'SCONJ', 'PRON', 'PART', 'AUX', 'PUNCT']);
/** How much each cue counts in a span's score (fitted by bench/qa-fit.ts, see qa-model.ts). */
export const SPAN_WEIGHTS = QA_MODEL.span;
const TITLES = new Set([
  'king',
  'queen',
  'duke',
  'pope',
  'saint',
  'st',
  'emperor',
  'sir',
  'lord',
  'dr',
  'president',
  'general',
  'prince',
  'princess',
  'count',
  'bishop',
  'archbishop',
]);
const ATTACHING = new Set(['of', 'in', 'for', 'as', 'on', 'from', 'with', 'to', 'at']);
const CONNECTORS = new Set(['of', 'the', 'de', 'and', 'la', 'von', 'van', 'du', 'del', 'der', '&']);
const NOUNISH = new Set(['NOUN', 'PROPN', 'ADJ', 'NUM']);
const PLACE_PREPOSITIONS = new Set(['in', 'at', 'from', 'to', 'near', 'into', 'across', 'throughout', 'within']);
const REASON_MARKERS = new Set(['because', 'due', 'since', 'as', 'so', 'order']);
const CENTURY = /^(?:century|centuries|millennium|decade|decades|bc|bce|ad|ce)$/;

const isWord = (t: Token) => t.type === 'word' || t.type === 'number' || t.type === 'ordinal' || t.type === 'decade';
const isYear = (t: Token) => /^(?:1\d{3}|20\d{2})$|^\d{2,3}0s$/.test(t.text);

function entityShape(t: Token, tokens: Token[]): Shape | null {
  switch (t.entity) {
    case 'DATE':
    case 'TIME':
      return 'date';
    case 'DURATION':
      // "1754–1763" is a span of years.
      return tokens.slice(t.entityStart, t.entityEnd + 1).some(isYear) ? 'year' : 'duration';
    case 'ORDINAL':
      return 'ordinal';
    case 'CARDINAL':
      return isYear(t) ? 'year' : 'number';
    case 'MONEY':
    case 'PERCENT':
      return 'number';
    default:
      return null;
  }
}

/** Stretches of the sentence that could be a short answer: entities, proper-name runs, noun chunks, clauses. */
function candidates(tokens: Token[], focus: string | null): Candidate[] {
  const out: Candidate[] = [];
  // What stands before the question's noun: "rounded" in "rounded arches" for "What kind of arches…".
  if (focus) {
    tokens.forEach((t, i) => {
      if (t.lower !== focus && t.stem !== focus) return;
      let from = i;
      while (from > 0 && NOUNISH.has(tokens[from - 1]!.pos) && !tokens[from - 1]!.stop) from--;
      if (from < i) out.push({ from, to: i - 1, shape: 'modifier' });
    });
  }
  // Words in quotation marks.
  let open = -1;
  tokens.forEach((t, i) => {
    if (!/^["“”]$/.test(t.text)) return;
    if (open >= 0 && i - open > 1 && i - open <= 8) out.push({ from: open + 1, to: i - 1, shape: 'quoted' });
    open = open >= 0 ? -1 : i;
  });
  // Entities (wink: dates, times, durations, cardinals, ordinals, money, percentages).
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.entity && t.entityStart === i) {
      const shape = entityShape(t, tokens);
      if (!shape) continue;
      let to = t.entityEnd;
      // "10th century", "1,000 men", "$5 million": the unit word belongs to the answer.
      const unit = tokens[to + 1];
      if (unit && (CENTURY.test(unit.lower) || (shape === 'number' && unit.pos === 'NOUN'))) {
        out.push({ from: i, to, shape });
        to++;
      }
      out.push({ from: i, to, shape });
    } else if (!t.entity && (t.type === 'number' || t.type === 'decade' || isYear(t))) {
      out.push({ from: i, to: i, shape: isYear(t) ? 'year' : 'number' });
    }
  }
  // Runs of proper nouns, with "of", "the", "and" between two of them.
  // A month or a weekday belongs to its date, not to a name.
  const proper = (t: Token | undefined) => t?.pos === 'PROPN' && !t.entity;
  for (let i = 0; i < tokens.length; i++) {
    if (!proper(tokens[i])) continue;
    let j = i;
    while (j + 1 < tokens.length) {
      const n = tokens[j + 1]!;
      if (proper(n)) j++;
      else if (CONNECTORS.has(n.lower) && proper(tokens[j + 2])) j += 2;
      else break;
    }
    out.push({ from: i, to: j, shape: 'name' });
    i = j;
  }
  // Noun chunks (adjectives, numbers and nouns ending in a noun), and a chunk with its "of …" tail.
  for (let i = 0; i < tokens.length; i++) {
    if (!NOUNISH.has(tokens[i]!.pos) || tokens[i]!.stop) continue;
    let j = i;
    while (j + 1 < tokens.length && NOUNISH.has(tokens[j + 1]!.pos)) j++;
    let end = j;
    while (end >= i && !['NOUN', 'PROPN'].includes(tokens[end]!.pos)) end--;
    if (end >= i) {
      out.push({ from: i, to: end, shape: 'noun' });
      // With up to two attached phrases: "education of children as Catholics".
      let tail = end;
      for (let hop = 0; hop < SPAN_WEIGHTS.hops; hop++) {
        const prep = tokens[tail + 1];
        if (!prep || !ATTACHING.has(prep.lower)) break;
        let k = tail + 2;
        if (tokens[k]?.pos === 'DET') k++;
        let m = k;
        while (m < tokens.length && NOUNISH.has(tokens[m]!.pos)) m++;
        if (m === k || !['NOUN', 'PROPN'].includes(tokens[m - 1]!.pos)) break;
        tail = m - 1;
        out.push({ from: i, to: tail, shape: 'noun' });
      }
    }
    i = j;
  }
  out.push(...listCandidates(tokens));
  // "because …", "due to …": the clause up to the next comma or the end.
  for (let i = 0; i < tokens.length; i++) {
    if (!REASON_MARKERS.has(tokens[i]!.lower)) continue;
    if (tokens[i]!.lower === 'as' && tokens[i + 1]?.lower !== 'a') continue;
    let from = i + 1;
    while (from < tokens.length && /^(?:to|of|a|result)$/.test(tokens[from]!.lower)) from++;
    let to = from;
    while (to + 1 < tokens.length && tokens[to + 1]!.type !== 'punctuation') to++;
    if (to >= from && from < tokens.length) out.push({ from, to, shape: 'clause' });
  }
  // "by …ing …": how something is done.
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.lower !== 'by' && tokens[i]!.lower !== 'through') continue;
    let to = i + 1;
    while (to + 1 < tokens.length && tokens[to + 1]!.type !== 'punctuation' && to - i < 8) to++;
    if (to > i && to < tokens.length) out.push({ from: i + 1, to, shape: 'clause' });
  }
  return out;
}

/** "Liao, Jin, and Song", "commercial, scientific, and cultural": runs of nouns and adjectives joined by commas
 * and a final "and"/"or" (a list needs that conjunction: "Paris, France" is no list). */
export function listCandidates(tokens: Token[]): Candidate[] {
  const runs: [number, number][] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (!NOUNISH.has(tokens[i]!.pos) || tokens[i]!.stop) continue;
    let j = i;
    while (j + 1 < tokens.length && NOUNISH.has(tokens[j + 1]!.pos)) j++;
    runs.push([i, j]);
    i = j;
  }
  // What joins each run to the next: a comma, a conjunction (", and", "or the"), or anything else.
  const joins = runs.slice(1).map(([next], k) => {
    const between = tokens.slice(runs[k]![1] + 1, next).map((t) => t.lower);
    if (between[between.length - 1] === 'the') between.pop();
    const joined = between.join(' ');
    return joined === ',' ? 'comma' : /^,? ?(?:and|or)$/.test(joined) ? 'conjunction' : 'other';
  });
  // Each run starts the list running over the commas after it up to a conjunction (linear: the end is shared).
  const out: Candidate[] = [];
  let end = joins.length;
  for (let a = joins.length - 1; a >= 0; a--) {
    if (joins[a] !== 'comma') end = a;
    const [from, to] = [runs[a]![0], runs[end + 1]?.[1] ?? 0];
    if (joins[end] === 'conjunction' && to - from < MAX_LIST_TOKENS) out.push({ from, to, shape: 'list' });
  }
  return out;
}

/** Longer than this, a list is no short answer (and scoring a candidate costs its length). */
const MAX_LIST_TOKENS = 30;

const FITS: Record<AnswerKind, Partial<Record<Shape, number>>> = {
  date: { date: 3, year: 3, ordinal: 1.5, duration: 1, number: 0.5 },
  number: { number: 3, duration: 2.5, ordinal: 1, year: 0.5, date: 0.5 },
  person: { name: 2.5, noun: 0.3, quoted: 0.5, list: 1 },
  place: { name: 2.5, noun: 0.5, quoted: 0.5, list: 1 },
  name: { name: 2.5, noun: 0.8, quoted: 3, modifier: 1.5, list: 1 },
  thing: { noun: 1.5, name: 1.3, number: 0.3, date: 0.3, year: 0.3, modifier: 2, quoted: 1.8, list: 1.5 },
  reason: { clause: 3, noun: 0.2 },
  manner: { clause: 2.5, noun: 0.6, name: 0.3 },
};

/**
 * The stretch of a sentence that answers the question: candidates of the asked kind, near the question's
 * words in the sentence, and not made of them. Null when the sentence holds no candidate at all.
 */
export function answerSpan(
  sentence: string,
  questionStems: Set<string>,
  question: QuestionKind,
  tokens: Token[] = sentenceTokens(sentence),
): Span | null {
  const inQuestion = tokens.map((t) => isWord(t) && (questionStems.has(t.stem) || questionStems.has(t.lower)));
  const anchors = inQuestion.flatMap((q, i) => (q && !tokens[i]!.stop ? [i] : []));
  let best: Span | null = null;
  const last = anchors[anchors.length - 1] ?? -1;
  for (const c of candidates(tokens, question.focus)) {
    // Words of the question at either edge are not part of the answer ("the river Rhine" for "which river").
    let { from, to } = c;
    while (from <= to && (inQuestion[from] || tokens[from]!.pos === 'DET' || tokens[from]!.type === 'punctuation')) {
      from++;
    }
    const keep = (k: number) => SPAN_WEIGHTS.keepFocus > 0 && tokens[k]!.lower === question.focus && k > from;
    while (
      to >= from &&
      ((inQuestion[to] && !keep(to)) || tokens[to]!.type === 'punctuation' || EDGE_POS.has(tokens[to]!.pos))
    ) {
      to--;
    }
    while (from <= to && EDGE_POS.has(tokens[from]!.pos)) from++;
    if (from > to) continue;
    // "IV" of "Henry IV" for "What religion did Henry renounce?": what is left of a name the question holds.
    const askedName = (k: number) => inQuestion[k] && tokens[k]!.pos === 'PROPN';
    const partOfName = (from > c.from && askedName(c.from)) || (to < c.to && askedName(c.to));
    const words = tokens.slice(from, to + 1).filter(isWord);
    if (!words.length || words.every((w) => w.stop || TITLES.has(w.lower))) continue;
    const overlap = words.filter((_, k) => inQuestion[from + k]).length / words.length;
    const fit = FITS[question.kind][c.shape] ?? 0;
    let score = fit - SPAN_WEIGHTS.overlap * overlap - (partOfName ? SPAN_WEIGHTS.partOfName : 0);
    if (question.kind === 'place' && PLACE_PREPOSITIONS.has(tokens[c.from - 1]?.lower ?? '')) {
      score += SPAN_WEIGHTS.placeAfter;
    }
    const prev = tokens[c.from - 1]?.lower ?? '';
    if (question.kind === 'person') {
      if (prev === 'by') score += SPAN_WEIGHTS.personBy;
      if (PLACE_PREPOSITIONS.has(prev)) score -= SPAN_WEIGHTS.notPerson;
      // "King Harold", "the priest, Guyard de Moulin": a title or a person's noun before a name.
      const named = tokens[c.from - (prev === ',' ? 2 : 1)]?.lower ?? '';
      if (TITLES.has(tokens[c.from]!.lower) || PERSON_NOUNS.test(named)) score += SPAN_WEIGHTS.title;
    }
    if (c.shape === 'list') score += question.several ? SPAN_WEIGHTS.listAsked : -SPAN_WEIGHTS.listUnasked;
    if (!question.subject && last >= 0 && from > last && from - last <= 3) score += SPAN_WEIGHTS.afterLast;
    if (question.focus) {
      const before = tokens[c.from - 1]?.lower;
      const after = tokens[c.to + 1]?.lower;
      if (before === question.focus || after === question.focus) score += SPAN_WEIGHTS.focusBeside;
    }
    // Near the question's words in the sentence.
    if (anchors.length) {
      const d = Math.min(...anchors.map((a) => (a < from ? from - a : a > to ? a - to : 0)));
      score += SPAN_WEIGHTS.near / (1 + d / 3);
      // The subject of "Who made…" stands before the question's words; other answers after the first of them.
      if (question.subject ? to < anchors[0]! : from > anchors[0]!) score += SPAN_WEIGHTS.side;
    }
    if (anchors.length) {
      // Inside the run of the question's own words ("… Kublai in 1291 forbade …" aside), answers are rarer.
      if (anchors[0]! < from && to < last) score -= SPAN_WEIGHTS.between;
      // A comma or a semicolon between the span and the question's nearest word: another clause (but not the
      // comma of an apposition right before the span: "the priest, Guyard de Moulin").
      const nearest = anchors.reduce((a, b) => (Math.abs(b - from) < Math.abs(a - from) ? b : a));
      const [x, y] = nearest < from ? [nearest, Math.min(from, c.from - 1)] : [to, nearest];
      let split = false;
      for (let k = x + 1; k < y; k++) if (/^[,;:]$/.test(tokens[k]!.text)) split = true;
      if (!split) score += SPAN_WEIGHTS.sameClause;
    }
    // "known as whips", "called Abilene", "(various allied groups …)": a name or definition given.
    const lead = `${tokens[c.from - 2]?.lower ?? ''} ${prev}`;
    if (/(?:known as|called|named|termed|^.* \()$/.test(lead)) score += SPAN_WEIGHTS.given;
    score += SPAN_WEIGHTS.longer * Math.min(words.length, SPAN_WEIGHTS.longest - 1);
    if (words.length > SPAN_WEIGHTS.longest) score -= SPAN_WEIGHTS.tooLong * (words.length - SPAN_WEIGHTS.longest);
    const text = sentence.slice(tokens[from]!.start, tokens[to]!.end);
    if (!best || score > best.score) {
      best = { text, start: tokens[from]!.start, end: tokens[to]!.end, score, typed: fit >= 2 };
    }
  }
  return best;
}
