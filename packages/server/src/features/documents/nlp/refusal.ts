import type { Span } from './answer-span.ts';
import { questionNames } from './kind-cues.ts';
import { QA_MODEL } from './qa-model.ts';
import { linearScore, SENTENCE_FEATURES, type RankedSentence, type WordCounts } from './sentence-rank.ts';

/** What "not in the document" is judged on, about the sentence chosen to answer from. */
export const REFUSAL_FEATURES = [
  /** Share of the question's weight the sentence and the one before it hold. */
  'coverage',
  /** Share of the question's weight the sentence alone holds. */
  'own',
  /** Share of the question's weight its passage holds. */
  'passageCover',
  /** The ranker's softmax probability of the sentence among all it scored. */
  'confidence',
  /** The ranker's score of the sentence. */
  'score',
  /** How far ahead of the next best sentence it is (the ranker's score). */
  'margin',
  /** Share of the question's weight in words the document never uses. */
  'absent',
  /** The weight of the rarest question word the sentence and the one before it miss, against the rarest's. */
  'missing',
  /** 1 when the short answer is of the asked kind (a date for "when"…). */
  'typed',
  /** How well the short answer fits (answerSpan's score, a quarter of it). */
  'span',
  /** log(1 + the question's content words). */
  'terms',
  /** How many of the question's words the sentence and the one before it miss (at most 3), a third of it. */
  'missingWords',
  /** 1 when a name or number of the question (a capitalised word, digits) is nowhere in the passage. */
  'missingName',
  /** 1 when the question says "not", "never"… and the sentence does not, or the other way round. */
  'negation',
  /** 1 when a name or number of the question is in neither the sentence nor the one before it. */
  'missingNameNear',
  /** 1 when a number of the question (digits) is nowhere in the passage. */
  'missingNumber',
  /** 1 when the question says "least", "first", "before", "only"… and the sentence and the one before do not. */
  'modifier',
  /** Share of the question's weight in words the document uses, but not in the chosen passage. */
  'elsewhere',
  /** Pairs of question words standing side by side in the sentence too (the ranker's `phrase`). */
  'phrase',
  /** 1 when the chosen sentence is not in the passage BM25 put first. */
  'notFirstPassage',
  /** coverage squared: lets the model bend where most of the question is covered. */
  'coverage2',
] as const;

/** Words that change what a question asks when swapped or dropped (SQuAD 2.0's antonym and condition cases). */
const MODIFIERS =
  /\b(?:least|most|fewest|lowest|highest|smallest|largest|biggest|worst|best|first|last|earliest|latest|before|after|only|less|more|fewer|lower|higher|minimum|maximum|never|always|without|except)\b/giu;

const NEGATION = /\b(?:not|never|no|none|nor|without|n't|cannot)\b|n't\b/i;

const at = (name: (typeof SENTENCE_FEATURES)[number]) => SENTENCE_FEATURES.indexOf(name);

export function refusalFeatures(
  question: string,
  ranked: RankedSentence[],
  chosen: RankedSentence,
  span: Span | null,
  weights: Map<string, number>,
  words: WordCounts,
): number[] {
  const total = [...weights.values()].reduce((a, b) => a + b, 0) || 1;
  const heaviest = Math.max(...weights.values());
  const top = ranked[0]!.score;
  let sum = 0;
  for (const r of ranked) sum += Math.exp(r.score - top);
  const second = ranked.find((r) => r !== chosen)?.score ?? chosen.score - 5;
  let absent = 0;
  for (const [t, w] of weights) if (!words.counts.get(t)) absent += w;
  const held = new Set([...chosen.sentence.terms, ...(chosen.passage.sentences[chosen.index - 1]?.terms ?? [])]);
  let missing = 0;
  let missingWords = 0;
  for (const [t, w] of weights) {
    if (held.has(t)) continue;
    missing = Math.max(missing, w);
    missingWords++;
  }
  const passage = chosen.passage.text.toLowerCase();
  const names = questionNames(question);
  const missingName = names.some((n) => !passage.includes(n));
  const near = `${chosen.passage.sentences[chosen.index - 1]?.text ?? ''} ${chosen.sentence.text}`.toLowerCase();
  const missingNameNear = names.some((n) => !near.includes(n));
  const missingNumber = names.some((n) => /^\d/.test(n) && !passage.includes(n));
  const nearWords = new Set(near.match(/[\p{L}\d]+/gu) ?? []);
  const modifier = [...question.toLowerCase().matchAll(MODIFIERS)].some((m) => !nearWords.has(m[0]));
  const inPassage = new Set(chosen.passage.terms);
  let elsewhere = 0;
  for (const [t, w] of weights) if (!inPassage.has(t) && words.counts.get(t)) elsewhere += w;
  return [
    chosen.coverage,
    chosen.features[at('own')]!,
    chosen.features[at('passageCover')]!,
    Math.exp(chosen.score - top) / sum,
    chosen.score,
    Math.min(5, chosen.score - second),
    absent / total,
    missing / heaviest,
    span?.typed ? 1 : 0,
    Math.max(0, span?.score ?? 0) / 4,
    Math.log1p(weights.size),
    Math.min(3, missingWords) / 3,
    missingName ? 1 : 0,
    NEGATION.test(question) !== NEGATION.test(chosen.sentence.text) ? 1 : 0,
    missingNameNear ? 1 : 0,
    missingNumber ? 1 : 0,
    modifier ? 1 : 0,
    elsewhere / total,
    chosen.features[at('phrase')]!,
    chosen.features[at('firstPassage')]! ? 0 : 1,
    chosen.coverage ** 2,
  ];
}

/** The logistic model's probability that the document answers the question (fitted by bench/qa-fit.ts). */
export function answerableProbability(
  features: number[],
  model: { coefficients: readonly number[]; intercept: number } = QA_MODEL.refuse,
): number {
  return 1 / (1 + Math.exp(-(linearScore(model.coefficients, features) + model.intercept)));
}
