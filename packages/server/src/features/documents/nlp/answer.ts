import MiniSearch from 'minisearch';
import type { CitationDto } from '@studybuddy/shared/documents-api';
import type { Passage } from './passages.ts';
import { quote } from './summarise.ts';
import { answerSpan, type Span } from './answer-span.ts';
import { questionKind } from './question-kind.ts';
import { questionNames, wordsOf } from './kind-cues.ts';
import { QA_MODEL } from './qa-model.ts';
import { answerableProbability, refusalFeatures } from './refusal.ts';
import { countWords, rankSentences, termWeights, type RankedSentence, type WordCounts } from './sentence-rank.ts';
import { queryTerms, type Sentence } from './text-analysis.ts';

export interface RetrievalIndex {
  passages: Passage[];
  search: MiniSearch<{ id: number; terms: string }>;
  words: WordCounts;
}

/** The words that answer, in the sentence they come from (offsets of the words in that sentence). */
export interface ShortAnswer {
  text: string;
  sentence: string;
  start: number;
  end: number;
}

export interface OfflineAnswer {
  found: boolean;
  /** The span that answers (a date, a name, a number, a phrase), when one was found. */
  short: ShortAnswer | null;
  /** The sentence the answer comes from (or the key sentences, for an overview question). */
  sentences: string[];
  citations: CitationDto[];
  /** Best passages for a language model to answer from (best first). */
  context: Passage[];
  /** Probability that the document answers the question (what "not in the document" is judged on). */
  support: number;
}

/** BM25 (MiniSearch) over passages, on the same stems the question is reduced to. */
export function buildIndex(passages: Passage[]): RetrievalIndex {
  const search = new MiniSearch<{ id: number; terms: string }>({
    fields: ['terms'],
    tokenize: (s) => s.split(' '),
    processTerm: (t) => t || null,
    searchOptions: { tokenize: (s) => s.split(' '), processTerm: (t) => t || null },
  });
  search.addAll(passages.map((p) => ({ id: p.id, terms: p.terms.join(' ') })));
  return { passages, search, words: countWords(passages) };
}

export function citationOf(p: Passage): CitationDto {
  return { unit: p.unit, page: p.page, label: p.label, passage: p.text, start: p.start, end: p.end };
}

const OVERVIEW_TERMS = new Set([
  'about',
  'key',
  'point',
  'main',
  'topic',
  'summari',
  'summary',
  'import',
  'remember',
  'overview',
  'cover',
  'gist',
  'idea',
]);

const OVERVIEW_WORDING =
  /\b(?:about|overview|summar\w*|gist|key (?:points?|ideas?|takeaways?)|main (?:points?|ideas?|topics?))\b/i;

/** "What is this document about?", "What are the key points?": questions the summary answers. */
export function isOverviewQuestion(question: string, terms: string[]): boolean {
  return OVERVIEW_WORDING.test(question) && terms.every((t) => OVERVIEW_TERMS.has(t));
}

/** Below this probability that the document answers (see refusal.ts), the answer is "not in the document". */
export const MIN_SUPPORT = QA_MODEL.refuse.threshold;
/** A sentence holding less of the question's weight than this is no answer either. */
export const MIN_COVERAGE = QA_MODEL.refuse.minCoverage;

/**
 * Answers from the document alone: the sentences of the passages BM25 retrieved, re-ranked (question words
 * close together and in order, their passage's score, something of the asked kind), the best few read for a
 * short answer of the kind the question asks (a date for "when", a name for "who"…); the answer is that span,
 * its sentence and page, then further passages. Says it found nothing when a logistic model (refusal.ts) gives
 * too low a probability that the document answers, or the sentence holds too little of the question's weight.
 */
export function answerOffline(
  index: RetrievalIndex,
  question: string,
  overview: Sentence[] = [],
  { minSupport = MIN_SUPPORT, minCoverage = MIN_COVERAGE }: { minSupport?: number; minCoverage?: number } = {},
): OfflineAnswer {
  const terms = queryTerms(question);
  const { passages, search } = index;
  const none = (context: Passage[], support = 0): OfflineAnswer => ({
    found: false,
    short: null,
    sentences: [],
    citations: [],
    context,
    support,
  });
  if (!passages.length) return none([]);

  // The passages holding the document's key sentences: context for overview questions, and for a model
  // when no passage shares a word with the question (it may still find a paraphrase).
  const cited = overview.map((s) => passages.find((p) => p.sentences.includes(s))).filter((p): p is Passage => !!p);
  const unique = [...new Map(cited.map((p) => [p.id, p])).values()].slice(0, 4);

  if (isOverviewQuestion(question, terms) && overview.length) {
    return {
      found: true,
      short: null,
      sentences: overview.slice(0, 4).map((s) => s.text),
      citations: unique.slice(0, 1).map(citationOf),
      context: unique.length ? unique.slice(0, 3) : passages.slice(0, 3),
      support: 1,
    };
  }

  if (!terms.length) return none(unique);
  const weights = termWeights(index.words, terms);
  const kind = questionKind(question);
  const ranked = rankSentences(passages, search, terms, weights, {
    kind: kind.kind,
    questionWords: wordsOf(question),
    names: questionNames(question),
  });
  const context = ranked.length ? distinctPassages(ranked, 4) : unique;
  if (!ranked.length) return none(context);

  const stems = new Set(terms);
  const { pick } = QA_MODEL;
  let best: { r: RankedSentence; span: Span | null; score: number } | null = null;
  for (const r of ranked.slice(0, pick.sentencesRead)) {
    const span = answerSpan(quote(r.sentence.text), stems, kind);
    const score = r.score + pick.span * Math.max(0, span?.score ?? 0) + (span?.typed ? pick.typed : 0);
    if (!best || score > best.score) best = { r, span, score };
  }
  const { r, span } = best!;
  const support = answerableProbability(refusalFeatures(question, ranked, r, span, weights, index.words));
  if (support < minSupport || r.coverage < minCoverage) return none(context, support);

  const sentence = quote(r.sentence.text);
  const further = context.filter((p) => p !== r.passage).slice(0, 2);
  return {
    found: true,
    short: span ? { text: span.text, sentence, start: span.start, end: span.end } : null,
    sentences: [sentence],
    citations: [citationOf(r.passage), ...further.map(citationOf)],
    context: [r.passage, ...context.filter((p) => p !== r.passage)].slice(0, 4),
    support,
  };
}

/** The passages of the ranked sentences, best first, each once. */
function distinctPassages(ranked: RankedSentence[], n: number): Passage[] {
  const out: Passage[] = [];
  for (const r of ranked) {
    if (!out.includes(r.passage)) out.push(r.passage);
    if (out.length === n) break;
  }
  return out;
}
