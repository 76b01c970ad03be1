import MiniSearch from 'minisearch';
import type { CitationDto } from '@studybuddy/shared/documents-api';
import type { Passage } from './passages.ts';
import { quote } from './summarise.ts';
import { queryTerms, type Sentence } from './text-analysis.ts';

export interface RetrievalIndex {
  passages: Passage[];
  search: MiniSearch<{ id: number; terms: string }>;
}

export interface OfflineAnswer {
  found: boolean;
  /** The most relevant sentences, as the answer. */
  sentences: string[];
  citations: CitationDto[];
  /** Best passages for a language model to answer from (best first). */
  context: Passage[];
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
  return { passages, search };
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

const DATE_LIKE =
  /\b(\d{1,2}[/.-]\d{1,2}|\d{4}|jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?|oct(ober)?|nov(ember)?|dec(ember)?|monday|tuesday|wednesday|thursday|friday|saturday|sunday|week \d+|\d{1,2}(:\d{2})?\s?(am|pm))\b/i;

/**
 * Answers from the document alone: the passages that best match the question (BM25), then their sentences
 * that carry most of the question's rarer words. Says it found nothing when too few of the question's
 * words occur in the best passage.
 */
export function answerOffline(index: RetrievalIndex, question: string, overview: Sentence[] = []): OfflineAnswer {
  const terms = queryTerms(question);
  const { passages, search } = index;
  if (!passages.length) return { found: false, sentences: [], citations: [], context: [] };

  // The passages holding the document's key sentences: context for overview questions, and for a model
  // when no passage shares a word with the question (it may still find a paraphrase).
  const cited = overview.map((s) => passages.find((p) => p.sentences.includes(s))).filter((p): p is Passage => !!p);
  const unique = [...new Map(cited.map((p) => [p.id, p])).values()].slice(0, 4);

  if (isOverviewQuestion(question, terms) && overview.length) {
    return {
      found: true,
      sentences: overview.slice(0, 4).map((s) => s.text),
      citations: unique.slice(0, 1).map(citationOf),
      context: unique.length ? unique.slice(0, 3) : passages.slice(0, 3),
    };
  }

  if (!terms.length) return { found: false, sentences: [], citations: [], context: unique };
  const hits = search.search(terms.join(' '), { combineWith: 'OR', fuzzy: (t) => (t.length > 5 ? 0.2 : false) });
  const context = hits.length ? hits.slice(0, 4).map((h) => passages[h.id as number]!) : unique;
  const best = hits[0];
  const needed = Math.max(1, Math.ceil(terms.length * 0.3));
  if (!best || best.queryTerms.length < needed) return { found: false, sentences: [], citations: [], context };

  // Passages holding each question word, in one pass over the passages (not one per word).
  const counts = new Map(terms.map((t) => [t, 0]));
  for (const p of passages) for (const t of new Set(p.terms)) if (counts.has(t)) counts.set(t, counts.get(t)! + 1);
  const n = passages.length;
  const weights = new Map(terms.map((t) => [t, Math.log(1 + (n - counts.get(t)! + 0.5) / (counts.get(t)! + 0.5))]));
  const wantsDate = /^\s*(when|what (date|time|day))\b/i.test(question);
  const top = context.slice(0, 2);
  const scored = top.flatMap((p, rank) =>
    p.sentences.map((s, i) => {
      const set = new Set(s.terms);
      let score = 0;
      for (const [t, w] of weights) if (set.has(t)) score += w;
      if (wantsDate && DATE_LIKE.test(s.text)) score *= 1.5;
      return { p, s, i, score: score * (rank === 0 ? 1 : 0.85) };
    }),
  );
  scored.sort((a, b) => b.score - a.score);
  const first = scored[0]!;
  const chosen = [first];
  const follower = first.p.sentences[first.i + 1];
  const second = scored.find((x) => x !== first && x.p === first.p && x.score >= first.score * 0.7);
  if (second) chosen.push(second);
  else if (follower && first.s.words < 12) chosen.push({ ...first, s: follower, i: first.i + 1 });
  chosen.sort((a, b) => a.i - b.i);
  return {
    found: true,
    sentences: chosen.map((c) => quote(c.s.text)),
    citations: [citationOf(first.p)],
    context,
  };
}
