import type MiniSearch from 'minisearch';
import type { Passage } from './passages.ts';
import type { Sentence } from './text-analysis.ts';

/** A sentence of a retrieved passage, scored against the question. */
export interface RankedSentence {
  passage: Passage;
  sentence: Sentence;
  index: number;
  score: number;
  /** Share of the question's weight (rarer words weigh more) the sentence and its neighbours hold, 0–1. */
  coverage: number;
}

/** How many retrieved passages have their sentences scored. */
const PASSAGES_READ = 12;
export const RANK_WEIGHTS = { phrase: 0.5, proximity: 0.6, passage: 0.5, neighbour: 0.5, related: 0, length: 0 };

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

/** Smallest stretch of the sentence's words holding every matched question word once: 1 when side by side. */
function proximity(terms: string[], matched: Set<string>): number {
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
function phraseWeight(terms: string[], question: string[], weights: Map<string, number>): number {
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
 * Re-ranks the sentences of the passages BM25 retrieved: the weight of the question's words each holds, more
 * when they stand close together and in the question's order, plus its passage's BM25 score and a little of
 * the sentence before it (which may name what "it" or "he" stands for).
 */
export function rankSentences(
  passages: Passage[],
  search: MiniSearch<{ id: number; terms: string }>,
  terms: string[],
  weights: Map<string, number>,
): RankedSentence[] {
  const hits = search.search(terms.join(' '), { combineWith: 'OR', fuzzy: (t) => (t.length > 5 ? 0.2 : false) });
  if (!hits.length) return [];
  const top = hits[0]!.score;
  const total = [...weights.values()].reduce((a, b) => a + b, 0) || 1;
  const out: RankedSentence[] = [];
  const read = hits.slice(0, PASSAGES_READ).map((h) => ({ hit: h, passage: passages[h.id as number]! }));
  // A word of the text sharing the first five letters with a question word ("proclaimed" for "proclamation")
  // stands for it, at a lower weight.
  const related = new Map<string, string>();
  for (const { passage } of read) {
    for (const t of passage.terms) {
      if (t.length < 5 || weights.has(t) || related.has(t)) continue;
      const q = terms.find((x) => x.length >= 5 && x.slice(0, 5) === t.slice(0, 5));
      if (q) related.set(t, q);
    }
  }
  const words = read.flatMap((r) => r.passage.sentences.map((s) => s.terms.length));
  const averageLength = words.reduce((a, b) => a + b, 0) / (words.length || 1) || 1;
  for (const { hit, passage } of read) {
    const held = passage.sentences.map((s) => {
      const set = new Set(s.terms);
      for (const t of s.terms) {
        const q = related.get(t);
        if (q && !set.has(q)) set.add(`~${q}`);
      }
      return set;
    });
    passage.sentences.forEach((sentence, index) => {
      const set = held[index]!;
      const matched = new Set(terms.filter((t) => set.has(t)));
      let own = 0;
      for (const t of matched) own += weights.get(t)!;
      for (const t of terms) if (set.has(`~${t}`)) own += RANK_WEIGHTS.related * weights.get(t)!;
      own /= 1 + RANK_WEIGHTS.length * (sentence.terms.length / averageLength - 1);
      let before = 0;
      const prev = held[index - 1];
      const around = new Set(matched);
      if (prev) {
        for (const t of terms) {
          if (!set.has(t) && prev.has(t)) {
            before += weights.get(t)!;
            around.add(t);
          }
        }
      }
      let covered = 0;
      for (const t of around) covered += weights.get(t)!;
      const score =
        own +
        RANK_WEIGHTS.phrase * phraseWeight(sentence.terms, terms, weights) +
        RANK_WEIGHTS.proximity * proximity(sentence.terms, matched) * (own / matched.size || 0) +
        RANK_WEIGHTS.passage * (hit.score / top) * total +
        RANK_WEIGHTS.neighbour * before;
      out.push({ passage, sentence, index, score, coverage: covered / total });
    });
  }
  return out.sort((a, b) => b.score - a.score);
}
