// Fits the offline answer's models on SQuAD 2.0 dev's tuning articles only (even positions in the file; the
// odd ones are the held-out figures of qa.bench.ts and are never read here), and prints them; with --write it
// rewrites packages/server/src/features/documents/nlp/qa-model.ts.
//   node --import tsx bench/qa-fit.ts /path/to/dev-v2.0.json [--write]
// 1. The sentence ranker: a linear score over SENTENCE_FEATURES, fitted as a softmax over each question's
//    candidate sentences (the sentence on the right page holding a gold answer is the one to put first).
// 2. How much the short answer's fit counts when choosing among the best few sentences: a grid search.
// 3. "Not in the document": a logistic model over REFUSAL_FEATURES (answerable or not), and the threshold on
//    its probability that refuses at most 4 % of the answerable tuning questions.
import { writeFileSync } from 'node:fs';
import { buildIndex } from '../packages/server/src/features/documents/nlp/answer.ts';
import { buildPassages } from '../packages/server/src/features/documents/nlp/passages.ts';
import {
  rankSentences,
  SENTENCE_FEATURES,
  termWeights,
  linearScore,
  type RankedSentence,
  type WordCounts,
} from '../packages/server/src/features/documents/nlp/sentence-rank.ts';
import { answerSpan, SPAN_WEIGHTS, type Span } from '../packages/server/src/features/documents/nlp/answer-span.ts';
import { sentenceTokens, type Token } from '../packages/server/src/features/documents/nlp/sentence-tokens.ts';
import {
  answerableProbability,
  REFUSAL_FEATURES,
  refusalFeatures,
} from '../packages/server/src/features/documents/nlp/refusal.ts';
import { quote } from '../packages/server/src/features/documents/nlp/summarise.ts';
import { questionNames, wordsOf } from '../packages/server/src/features/documents/nlp/kind-cues.ts';
import { questionKind } from '../packages/server/src/features/documents/nlp/question-kind.ts';
import { queryTerms } from '../packages/server/src/features/documents/nlp/text-analysis.ts';
import { answerF1, normaliseAnswer } from '../packages/shared/src/answer-match.ts';
import { fitLogistic, fitSoftmax } from './qa-fit-models.ts';
import { articlePages, squadArticles } from './qa-squad.ts';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
if (!file) throw new Error('pass the path of SQuAD 2.0 dev-v2.0.json');
const write = args.includes('--write');

const normalise = normaliseAnswer;
const holds = (text: string, golds: string[]) =>
  golds.some((g) => ` ${normalise(text)} `.includes(` ${normalise(g)} `));

interface Asked {
  question: string;
  golds: string[];
  page: number;
  ranked: RankedSentence[];
}

// The tuning articles only: even positions.
const articles = squadArticles(file, 'tune');
const asked: Asked[] = [];
const words = new Map<Asked, WordCounts>();
for (const article of articles) {
  const pages = articlePages(article);
  const { passages } = buildPassages(pages);
  const index = buildIndex(passages);
  article.paragraphs.forEach((paragraph, i) => {
    for (const qa of paragraph.qas) {
      const terms = queryTerms(qa.question);
      const options = {
        kind: questionKind(qa.question).kind,
        questionWords: wordsOf(qa.question),
        names: questionNames(qa.question),
      };
      const weights = termWeights(index.words, terms);
      const ranked = terms.length ? rankSentences(passages, index.search, terms, weights, options) : [];
      const a = {
        question: qa.question,
        golds: qa.is_impossible ? [] : qa.answers.map((g) => g.text),
        page: i + 1,
        ranked,
      };
      asked.push(a);
      words.set(a, index.words);
    }
  });
}
const answerable = asked.filter((a) => a.golds.length);
const right = (a: Asked, r: RankedSentence) => r.passage.page === a.page && holds(r.sentence.text, a.golds);

// ── 1. Sentence ranker ──
const groups = answerable
  .map((a) => ({ x: a.ranked.map((r) => r.features), y: a.ranked.map((r) => right(a, r)) }))
  .filter((g) => g.y.some(Boolean));
const sentence = fitSoftmax(groups, SENTENCE_FEATURES.length);
const firstRight = (coefficients: number[]) => {
  let n = 0;
  for (const g of groups) {
    let best = -Infinity;
    let ok = false;
    g.x.forEach((x, k) => {
      const s = x.reduce((acc, v, j) => acc + v * coefficients[j]!, 0);
      if (s > best) {
        best = s;
        ok = g.y[k]!;
      }
    });
    if (ok) n++;
  }
  return (100 * n) / answerable.length;
};
console.log(`${articles.length} tuning articles, ${asked.length} questions (${answerable.length} answerable)`);
console.log(`sentence ranker: right sentence first ${firstRight(sentence).toFixed(1)} % of answerable questions`);
console.log(SENTENCE_FEATURES.map((f, i) => `  ${f} ${sentence[i]!.toFixed(3)}`).join('\n'));

// ── 2. Choosing among the best sentences with the short answer's fit ──
const f1 = answerF1;
// The best few sentences of every question, read once with entities (what answerSpan reads).
const sentencesRead = 5;
interface Read {
  r: RankedSentence;
  text: string;
  tokens: Token[];
  span: Span | null;
}
const read = new Map<Asked, Read[]>();
for (const a of asked) {
  for (const r of a.ranked) r.score = linearScore(sentence, r.features);
  a.ranked.sort((p, q) => q.score - p.score);
  read.set(
    a,
    a.ranked.slice(0, sentencesRead).map((r) => {
      const text = quote(r.sentence.text);
      return { r, text, tokens: sentenceTokens(text), span: null };
    }),
  );
}
const pick = { read: 3, span: 0.4, typed: 0.25 };
/** Short answers of every question's best sentences with the current weights. */
const readSpans = (which: Asked[]) => {
  for (const a of which) {
    const stems = new Set(queryTerms(a.question));
    const kind = questionKind(a.question);
    for (const x of read.get(a)!.slice(0, pick.read)) x.span = answerSpan(x.text, stems, kind, x.tokens);
  }
};
const choose = (a: Asked) => {
  let best: (Read & { score: number }) | null = null;
  for (const x of read.get(a)!.slice(0, pick.read)) {
    const score = x.r.score + pick.span * Math.max(0, x.span?.score ?? 0) + (x.span?.typed ? pick.typed : 0);
    if (!best || score > best.score) best = { ...x, score };
  }
  return best;
};
const quality = () => {
  readSpans(answerable);
  let contains = 0;
  let f = 0;
  for (const a of answerable) {
    const c = choose(a);
    if (!c) continue;
    if (c.r.passage.page === a.page && holds(c.r.sentence.text, a.golds)) contains++;
    const short = c.span?.text ?? c.r.sentence.text;
    f += Math.max(...a.golds.map((g) => f1(short, g)));
  }
  return { contains: (100 * contains) / answerable.length, f1: (100 * f) / answerable.length };
};
// Coordinate search: each weight in turn takes the value (of a few) that most raises contains + F1.
const span = SPAN_WEIGHTS as Record<string, number>;
const steps: [Record<string, number>, string, number[]][] = [
  [pick, 'read', [1, 2, 3, 5]],
  [pick, 'span', [0, 0.2, 0.4, 0.6, 1]],
  [pick, 'typed', [0, 0.25, 0.5, 1]],
  [span, 'longer', [0, 0.1, 0.2, 0.3, 0.5]],
  [span, 'longest', [4, 5, 6, 8]],
  [span, 'tooLong', [0.05, 0.12, 0.25, 0.5]],
  [span, 'near', [0.5, 1, 1.5, 2, 3]],
  [span, 'side', [0, 0.25, 0.5, 1]],
  [span, 'afterLast', [0, 0.4, 0.8, 1.2]],
  [span, 'overlap', [1, 2, 3, 5]],
  [span, 'focusBeside', [0, 0.5, 1, 1.5]],
  [span, 'personBy', [0, 0.4, 0.8, 1.2]],
  // A title or a person's noun before a name ("the priest, Guyard de Moulin") always counts for something.
  [span, 'title', [0.5, 1]],
  [span, 'placeAfter', [0, 0.35, 0.7, 1.2]],
  [span, 'hops', [0, 1, 2, 3]],
  [span, 'between', [0, 0.3, 0.6, 1]],
  [span, 'sameClause', [0, 0.3, 0.6, 1]],
  [span, 'given', [0, 0.5, 1, 2]],
  [span, 'listAsked', [0, 1, 2.5, 3.5, 5]],
  [span, 'listUnasked', [0, 0.5, 1, 2, 10]],
  [span, 'partOfName', [0, 0.5, 1, 2, 3]],
];
let current = quality();
console.log(`short answers before the search: contains ${current.contains.toFixed(1)} %, F1 ${current.f1.toFixed(1)}`);
for (let pass = 0; pass < 2; pass++) {
  for (const [object, key, values] of steps) {
    let bestValue = object[key]!;
    for (const v of values) {
      if (v === bestValue) continue;
      const kept = object[key]!;
      object[key] = v;
      const q = quality();
      if (q.contains + q.f1 > current.contains + current.f1 + 0.05) {
        current = q;
        bestValue = v;
      }
      object[key] = kept;
    }
    object[key] = bestValue;
  }
}
console.log(
  `short answers after: contains ${current.contains.toFixed(1)} %, F1 ${current.f1.toFixed(1)}; ` +
    `pick ${JSON.stringify(pick)}; span ${JSON.stringify(SPAN_WEIGHTS)}`,
);
readSpans(asked);

// ── 3. "Not in the document" ──
const x: number[][] = [];
const y: boolean[] = [];
for (const a of asked) {
  const c = choose(a);
  // A question with no word the document shares is refused before any model.
  if (!c) continue;
  const terms = queryTerms(a.question);
  x.push(refusalFeatures(a.question, a.ranked, c.r, c.span, termWeights(words.get(a)!, terms), words.get(a)!));
  y.push(a.golds.length > 0);
}
// QA_FIT_DUMP=/tmp/file.json keeps the refusal's features to try other models on without re-reading the set.
if (process.env.QA_FIT_DUMP) writeFileSync(process.env.QA_FIT_DUMP, JSON.stringify({ x, y }));
const logistic = fitLogistic(x, y);
const refuse = { coefficients: logistic.slice(0, -1), intercept: logistic[logistic.length - 1]! };
const probabilities = x.map((f) => answerableProbability(f, refuse));
const coverage = x.map((f) => f[REFUSAL_FEATURES.indexOf('coverage')]!);
// SQuAD's questions share most words with their paragraph, so the model learns little about a question
// whose words the document mostly lacks (common for students): below a floor of coverage it is refused too.
// The floor is the highest refusing at most 1 % of the answerable tuning questions by itself; then the
// threshold is the highest refusing at most 4 % with it (5 % is the target; the margin is for articles unlike
// these).
const answerableCount = y.filter(Boolean).length;
const refusedShare = (floor: number, threshold: number, answerableOnes: boolean) =>
  probabilities.filter((p, i) => y[i] === answerableOnes && (p < threshold || coverage[i]! < floor)).length /
  (answerableOnes ? answerableCount : y.length - answerableCount);
for (const f of [0.05, 0.1, 0.15, 0.2, 0.25, 0.3])
  console.log(
    `  floor ${f}: answerable ${(100 * refusedShare(f, 0, true)).toFixed(1)} %, unanswerable ${(100 * refusedShare(f, 0, false)).toFixed(1)} %`,
  );
const floor = Math.max(...[0, 0.1, 0.15, 0.2, 0.25, 0.3].filter((f) => refusedShare(f, 0, true) <= 0.01));
let threshold = 0;
for (const t of [...new Set(probabilities)].sort((a, b) => a - b)) {
  if (refusedShare(floor, t, true) > 0.04) break;
  threshold = t;
}
const decision = { floor, threshold, recognised: refusedShare(floor, threshold, false) };
console.log(
  `refusal: coverage floor ${decision.floor}, threshold ${decision.threshold.toFixed(4)} refuse ` +
    `${(100 * decision.recognised).toFixed(1)} % of unanswerable and ` +
    `${(100 * refusedShare(decision.floor, decision.threshold, true)).toFixed(1)} % of answerable tuning questions`,
);
console.log(REFUSAL_FEATURES.map((f, i) => `  ${f} ${refuse.coefficients[i]!.toFixed(3)}`).join('\n'));

if (write) {
  const round = (xs: number[]) => xs.map((v) => Number(v.toFixed(4)));
  writeFileSync(
    'packages/server/src/features/documents/nlp/qa-model.ts',
    `// Coefficients fitted by bench/qa-fit.ts on SQuAD 2.0 dev's tuning articles (even positions in the file);
// rewrite them by running it (\`node --import tsx bench/qa-fit.ts /path/dev-v2.0.json --write\`), not by hand.
export const QA_MODEL = {
  /** Sentence ranker, in the order of SENTENCE_FEATURES. */
  sentence: ${JSON.stringify(round(sentence))},
  /** Short answers: how much each cue counts in a span's score (see answer-span.ts). */
  span: ${JSON.stringify(SPAN_WEIGHTS)},
  /** Choosing among the best sentences: the ranker's score plus these times the short answer's fit. */
  pick: { sentencesRead: ${pick.read}, span: ${pick.span}, typed: ${pick.typed} },
  /** "Not in the document": logistic model over REFUSAL_FEATURES, refused below \`threshold\` or when the
   * sentence holds less than \`minCoverage\` of the question's weight. */
  refuse: {
    coefficients: ${JSON.stringify(round(refuse.coefficients))},
    intercept: ${refuse.intercept.toFixed(4)},
    threshold: ${decision.threshold.toFixed(4)},
    minCoverage: ${decision.floor},
  },
};
`,
  );
  console.log('wrote packages/server/src/features/documents/nlp/qa-model.ts');
}
