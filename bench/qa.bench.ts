// Offline answers measured on SQuAD 2.0's dev set (issue 28): each article one document with one paragraph a
// page, every question asked of the whole document, scored with the official SQuAD normalisation.
//   npm run bench qa -- /path/to/dev-v2.0.json [--split tune|held-out|all] [--limit N]
//   (or SQUAD_DEV=/path/to/dev-v2.0.json npm run bench qa)
// Articles are split by a fixed rule: their position in the file, even (0, 2, 4, …) for tuning, odd for the
// held-out figures. The baseline is the sentence with most question-word overlap, in the same run.
// The answer's models (sentence ranker, short-answer weights, "not in the document") are fitted on the tuning
// articles alone by bench/qa-fit.ts.
import { loadavg } from 'node:os';
import { answerOffline, buildIndex } from '../packages/server/src/features/documents/nlp/answer.ts';
import { buildPassages } from '../packages/server/src/features/documents/nlp/passages.ts';
import { keySentences } from '../packages/server/src/features/documents/nlp/summarise.ts';
import { queryTerms, type Sentence } from '../packages/server/src/features/documents/nlp/text-analysis.ts';
import { answerF1, normaliseAnswer } from '../packages/shared/src/answer-match.ts';
import { articlePages, squadArticles, type Split } from './qa-squad.ts';

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const file = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? process.env.SQUAD_DEV;
if (!file) {
  console.log('Skipped: pass the path of SQuAD 2.0 dev-v2.0.json (npm run bench qa -- /path/dev-v2.0.json).');
  process.exit(0);
}
const split = (option('--split') ?? 'held-out') as Split;
const limit = Number(option('--limit') ?? Infinity);
/** `--sweep`: answer everything, then print what each "not in the document" threshold would refuse. */
const sweep = args.includes('--sweep');
const supports: { support: number; answerable: boolean }[] = [];

// ── The official SQuAD normalisation and scores (shared with the practice quiz) ──
export const normalise = normaliseAnswer;
const f1 = answerF1;
const best = (golds: string[], score: (g: string) => number) => Math.max(0, ...golds.map(score));
const contains = (shown: string, golds: string[]) =>
  golds.some((g) => ` ${normalise(shown)} `.includes(` ${normalise(g)} `));

interface Outcome {
  answered: boolean;
  /** What the student reads first: the short answer (ours) or the sentence (baseline). */
  short: string;
  /** The short answer with the sentence it comes from. */
  shown: string;
  page: number | null;
  ms: number;
  /** CPU time of the process over the question (the wall time also counts other processes' turns). */
  cpuMs?: number;
}

interface Tally {
  name: string;
  answerable: number;
  unanswerable: number;
  contains: number;
  f1: number;
  em: number;
  f1All: number;
  rightPage: number;
  lengths: number[];
  refusedUnanswerable: number;
  refusedAnswerable: number;
  ms: number[];
  cpuMs: number[];
}
const tally = (name: string): Tally => ({
  name,
  answerable: 0,
  unanswerable: 0,
  contains: 0,
  f1: 0,
  em: 0,
  f1All: 0,
  rightPage: 0,
  lengths: [],
  refusedUnanswerable: 0,
  refusedAnswerable: 0,
  ms: [],
  cpuMs: [],
});

function record(t: Tally, o: Outcome, golds: string[], page: number) {
  t.ms.push(o.ms);
  if (o.cpuMs !== undefined) t.cpuMs.push(o.cpuMs);
  if (!golds.length) {
    t.unanswerable++;
    if (!o.answered) {
      t.refusedUnanswerable++;
      t.f1All++;
    }
    return;
  }
  t.answerable++;
  if (!o.answered) {
    t.refusedAnswerable++;
    return;
  }
  const f = best(golds, (g) => f1(o.short, g));
  t.f1 += f;
  t.f1All += f;
  t.em += best(golds, (g) => (normalise(o.short) === normalise(g) ? 1 : 0));
  if (contains(o.shown, golds)) t.contains++;
  if (o.page === page) t.rightPage++;
  t.lengths.push(o.short.split(/\s+/).filter(Boolean).length);
}

/** The trivial baseline: the sentence sharing most question words (first of equals), never refusing. */
function baseline(sentences: { s: Sentence; page: number }[], question: string): Outcome {
  const started = performance.now();
  const terms = queryTerms(question);
  let top: { s: Sentence; page: number } | null = null;
  let most = -1;
  for (const x of sentences) {
    const set = new Set(x.s.terms);
    const n = terms.filter((t) => set.has(t)).length;
    if (n > most) {
      most = n;
      top = x;
    }
  }
  const text = top?.s.text ?? '';
  return { answered: true, short: text, shown: text, page: top?.page ?? null, ms: performance.now() - started };
}

const chosen = squadArticles(file, split);
const ours = tally('offline engine');
const base = tally('baseline: sentence with most question words');
let indexMs = 0;
let asked = 0;
for (const article of chosen) {
  if (asked >= limit) break;
  const pages = articlePages(article);
  const started = performance.now();
  const { passages, sentences } = buildPassages(pages);
  const index = buildIndex(passages);
  const overview = keySentences(sentences);
  indexMs += performance.now() - started;
  const located = passages.flatMap((p) => p.sentences.map((s) => ({ s, page: p.page })));
  article.paragraphs.forEach((paragraph, i) => {
    for (const qa of paragraph.qas) {
      if (asked++ >= limit) return;
      const golds = qa.is_impossible ? [] : qa.answers.map((a) => a.text);
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      const answer = answerOffline(index, qa.question, overview, sweep ? { minSupport: 0, minCoverage: 0 } : {});
      supports.push({ support: answer.found ? answer.support : 0, answerable: golds.length > 0 });
      const ms = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const cpuMs = (cpu.user + cpu.system) / 1000;
      const sentence = answer.sentences.join(' ');
      const short = answer.short?.text ?? sentence;
      record(
        ours,
        { answered: answer.found, short, shown: sentence, page: answer.citations[0]?.page ?? null, ms, cpuMs },
        golds,
        i + 1,
      );
      record(base, baseline(located, qa.question), golds, i + 1);
    }
  });
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)} %` : '–');
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? 0;
};
const rows: [string, (t: Tally) => string, string][] = [
  ['answer contains a gold answer', (t) => pct(t.contains, t.answerable), '≥ 85 %'],
  ['short answer F1 (answerable)', (t) => ((100 * t.f1) / (t.answerable || 1)).toFixed(1), '≥ 45'],
  ['short answer exact match (answerable)', (t) => ((100 * t.em) / (t.answerable || 1)).toFixed(1), ''],
  [
    'F1, all questions (SQuAD 2.0 rule)',
    (t) => ((100 * t.f1All) / (t.answerable + t.unanswerable || 1)).toFixed(1),
    '',
  ],
  ['right page first', (t) => pct(t.rightPage, t.answerable), '≥ 90 %'],
  ['median short answer, words', (t) => String(quantile(t.lengths, 0.5)), ''],
  ['unanswerable said "not in the document"', (t) => pct(t.refusedUnanswerable, t.unanswerable), '≥ 40 %'],
  ['answerable wrongly refused', (t) => pct(t.refusedAnswerable, t.answerable), '≤ 5 %'],
  ['p95 per question after indexing', (t) => `${quantile(t.ms, 0.95).toFixed(1)} ms`, '≤ 50 ms'],
  [
    'p95 CPU time per question',
    (t) => (t.cpuMs.length ? `${quantile(t.cpuMs, 0.95).toFixed(1)} ms` : '–'),
    "(wall time less others' turns)",
  ],
];
const width = Math.max(...rows.map((r) => r[0].length));
console.log(
  `SQuAD 2.0 dev, ${split} articles (${split === 'tune' ? 'even' : split === 'all' ? 'all' : 'odd'} positions): ` +
    `${chosen.length} documents, ${ours.answerable} answerable and ${ours.unanswerable} unanswerable questions`,
);
console.log(`${''.padEnd(width)}  ${'ours'.padStart(9)}  ${'baseline'.padStart(9)}  target`);
for (const [label, value, target] of rows) {
  console.log(`${label.padEnd(width)}  ${value(ours).padStart(9)}  ${value(base).padStart(9)}  ${target}`);
}
console.log(
  `indexing ${(indexMs / chosen.length).toFixed(0)} ms a document on average; ` +
    `load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
);

if (sweep) {
  console.log('\n"not in the document" below a support of: unanswerable recognised / answerable refused');
  let chosenThreshold = 0;
  for (let x = 0.05; x <= 0.6001; x += 0.025) {
    const un = supports.filter((s) => !s.answerable);
    const an = supports.filter((s) => s.answerable);
    const refusedUn = un.filter((s) => s.support < x).length / (un.length || 1);
    const refusedAn = an.filter((s) => s.support < x).length / (an.length || 1);
    if (refusedAn <= 0.05) chosenThreshold = x;
    console.log(`  ${x.toFixed(3)}  ${pct(refusedUn, 1)}  ${pct(refusedAn, 1)}`);
  }
  console.log(`highest threshold refusing at most 5 % of answerable questions: ${chosenThreshold.toFixed(3)}`);
}
