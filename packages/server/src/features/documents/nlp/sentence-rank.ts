import type MiniSearch from 'minisearch';
import type { Passage } from './passages.ts';
import { kindCue } from './kind-cues.ts';
import { QA_MODEL } from './qa-model.ts';
import type { AnswerKind } from './question-kind.ts';
import type { Sentence } from './text-analysis.ts';

/** What the ranker reads of a sentence against the question (weights are the question words' rarity). */
export const SENTENCE_FEATURES = [
  /** Share of the question's weight the sentence holds. */
  'own',
  /** Weight of question-word pairs standing side by side, in order, as in the question. */
  'phrase',
  /** `own`, times how close together the matched words stand (1 when side by side). */
  'proximity',
  /** The passage's BM25 score against the best passage's. */
  'passage',
  /** 1 for a sentence of the best BM25 passage. */
  'firstPassage',
  /** Weight of the question words missing here that the sentence before holds ("it", "he" refer back). */
  'before',
  /** Likewise for the sentence after. */
  'after',
  /** Weight of question words present only as a related word ("proclaimed" for "proclamation"). */
  'related',
  /** Share of the question's words (unweighted) the sentence holds. */
  'share',
  /** 1 when the sentence holds the question's rarest word. */
  'rarest',
  /** Share of the question's weight the whole passage holds. */
  'passageCover',
  /** log(1 + content words of the sentence). */
  'length',
  /** Whether the sentence holds something of the asked kind: a year for "when", a number for "how many"… */
  'cue',
  /** Likewise for "who", "where" and names: a capitalised word the question does not hold. */
  'nameCue',
  /** log(1 + content words of the sentence that are not the question's): room for an answer. */
  'novel',
  /** Share of the question's names and numbers (capitalised words, digits) the sentence holds. */
  'names',
] as const;
export type SentenceFeature = (typeof SENTENCE_FEATURES)[number];

/** A sentence of a retrieved passage, scored against the question. */
export interface RankedSentence {
  passage: Passage;
  sentence: Sentence;
  index: number;
  score: number;
  /** Share of the question's weight (rarer words weigh more) the sentence and its neighbours hold, 0–1. */
  coverage: number;
  /** Values in the order of `SENTENCE_FEATURES`. */
  features: number[];
}

/** How many retrieved passages have their sentences scored. */
const PASSAGES_READ = 12;

/** In how many sentences each word occurs, and how many sentences there are: counted once per document. */
export interface WordCounts {
  sentences: number;
  counts: Map<string, number>;
}

export function countWords(passages: Passage[]): WordCounts {
  const counts = new Map<string, number>();
  let sentences = 0;
  for (const p of passages) {
    for (const s of p.sentences) {
      sentences++;
      for (const t of new Set(s.terms)) counts.set(t, (counts.get(t) ?? 0) + 1);
    }
  }
  return { sentences, counts };
}

/** Inverse document frequency of each question word over the document's sentences (an absent word weighs most). */
export function termWeights({ sentences: n, counts }: WordCounts, terms: string[]): Map<string, number> {
  return new Map(
    terms.map((t) => {
      const c = counts.get(t) ?? 0;
      return [t, Math.log(1 + (n - c + 0.5) / (c + 0.5))];
    }),
  );
}

/** Sum of coefficient times value: a linear model's score. */
export function linearScore(coefficients: readonly number[], values: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < values.length; i++) s += (coefficients[i] ?? 0) * values[i]!;
  return s;
}

/** Smallest stretch of the sentence's words holding every matched question word once: 1 when side by side. */
export function proximity(terms: string[], matched: Set<string>): number {
  if (matched.size < 2) return matched.size ? 1 : 0;
  const last = new Map<string, number>();
  let best = Infinity;
  terms.forEach((t, i) => {
    if (!matched.has(t)) return;
    last.set(t, i);
    if (last.size === matched.size) best = Math.min(best, i - Math.min(...last.values()) + 1);
  });
  return matched.size / best;
}

/** Pairs of question words that follow each other in the sentence too (a phrase of the question). */
export function phraseWeight(terms: string[], question: string[], weights: Map<string, number>): number {
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < terms.length; i++) pairs.add(`${terms[i]} ${terms[i + 1]}`);
  let w = 0;
  for (let i = 0; i + 1 < question.length; i++) {
    if (pairs.has(`${question[i]} ${question[i + 1]}`))
      w += weights.get(question[i]!)! + weights.get(question[i + 1]!)!;
  }
  return w;
}

/**
 * Re-ranks the sentences of the passages BM25 retrieved by a linear model over `SENTENCE_FEATURES` (fitted on
 * SQuAD 2.0 tuning articles by bench/qa-fit.ts): the weight of the question's words each holds, more when
 * they stand close together and in the question's order, its passage's BM25 score, and what the sentences
 * around it hold (which may name what "it" or "he" stands for).
 */
export function rankSentences(
  passages: Passage[],
  search: MiniSearch<{ id: number; terms: string }>,
  terms: string[],
  weights: Map<string, number>,
  {
    kind = 'thing',
    questionWords = new Set<string>(),
    names = [],
    coefficients = QA_MODEL.sentence,
  }: { kind?: AnswerKind; questionWords?: Set<string>; names?: string[]; coefficients?: readonly number[] } = {},
): RankedSentence[] {
  const hits = search.search(terms.join(' '), { combineWith: 'OR', fuzzy: (t) => (t.length > 5 ? 0.2 : false) });
  if (!hits.length) return [];
  const top = hits[0]!.score;
  const total = [...weights.values()].reduce((a, b) => a + b, 0) || 1;
  const named = kind === 'person' || kind === 'place' || kind === 'name';
  const rarest = [...weights.entries()].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
  const out: RankedSentence[] = [];
  const read = hits.slice(0, PASSAGES_READ).map((h) => ({ hit: h, passage: passages[h.id as number]! }));
  // A word of the text sharing the first five letters with a question word ("proclaimed" for "proclamation")
  // stands for it, at a lower weight.
  const related = new Map<string, string>();
  for (const { passage } of read) {
    for (const t of passage.terms) {
      if (t.length < 5 || weights.has(t) || related.has(t)) continue;
      const q = terms.find(
        (x) => (x.length >= 5 && x.slice(0, 5) === t.slice(0, 5)) || (x.length === 4 && t.startsWith(x)),
      );
      if (q) related.set(t, q);
    }
  }
  read.forEach(({ hit, passage }, rank) => {
    const held = passage.sentences.map((s) => new Set(s.terms));
    const inPassage = new Set(passage.terms);
    let passageCover = 0;
    for (const t of terms) if (inPassage.has(t)) passageCover += weights.get(t)!;
    const beside = (set: Set<string> | undefined, own: Set<string>) => {
      let w = 0;
      if (set) for (const t of terms) if (!own.has(t) && set.has(t)) w += weights.get(t)!;
      return w;
    };
    passage.sentences.forEach((sentence, index) => {
      const set = held[index]!;
      const matched = new Set(terms.filter((t) => set.has(t)));
      let own = 0;
      for (const t of matched) own += weights.get(t)!;
      let relatedWeight = 0;
      const relatedSeen = new Set<string>();
      for (const t of sentence.terms) {
        const q = related.get(t);
        if (q && !set.has(q) && !relatedSeen.has(q)) {
          relatedSeen.add(q);
          relatedWeight += weights.get(q)!;
        }
      }
      const before = beside(held[index - 1], set);
      const after = beside(held[index + 1], set);
      let covered = own;
      const prev = held[index - 1];
      if (prev) for (const t of terms) if (!set.has(t) && prev.has(t)) covered += weights.get(t)!;
      let namesHeld = 0;
      if (names.length) {
        const lower = sentence.text.toLowerCase();
        for (const n of names) if (lower.includes(n)) namesHeld++;
      }
      const features = [
        own / total,
        phraseWeight(sentence.terms, terms, weights) / total,
        (proximity(sentence.terms, matched) * own) / total,
        hit.score / top,
        rank === 0 ? 1 : 0,
        before / total,
        after / total,
        relatedWeight / total,
        matched.size / terms.length,
        set.has(rarest) ? 1 : 0,
        passageCover / total,
        Math.log1p(sentence.terms.length),
        named ? 0 : kindCue(sentence.text, kind, questionWords),
        named ? kindCue(sentence.text, kind, questionWords) : 0,
        Math.log1p(sentence.terms.filter((t) => !weights.has(t)).length),
        names.length ? namesHeld / names.length : 0,
      ];
      out.push({
        passage,
        sentence,
        index,
        score: linearScore(coefficients, features),
        coverage: covered / total,
        features,
      });
    });
  });
  return out.sort((a, b) => b.score - a.score);
}
