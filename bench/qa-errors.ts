// Where the offline answer goes wrong, on SQuAD 2.0 dev's tuning articles only (even positions; the held-out
// ones are never read here, so their misses cannot steer the models): for the answerable questions whose
// first page is wrong, where the right page stands among BM25's passages and the ranked sentences; for the
// others, how many miss the gold answer's sentence or its span, by the kind of answer asked.
//   node --import tsx bench/qa-errors.ts /path/to/dev-v2.0.json [--examples N]
// Questions are answered without refusing ("not in the document" is the refusal model's business).
import { answerOffline, buildIndex } from '../packages/server/src/features/documents/nlp/answer.ts';
import { questionNames, wordsOf } from '../packages/server/src/features/documents/nlp/kind-cues.ts';
import { buildPassages } from '../packages/server/src/features/documents/nlp/passages.ts';
import { questionKind } from '../packages/server/src/features/documents/nlp/question-kind.ts';
import { rankSentences, termWeights } from '../packages/server/src/features/documents/nlp/sentence-rank.ts';
import { keySentences } from '../packages/server/src/features/documents/nlp/summarise.ts';
import { queryTerms } from '../packages/server/src/features/documents/nlp/text-analysis.ts';
import { answerF1, normaliseAnswer } from '../packages/shared/src/answer-match.ts';
import { articlePages, squadArticles } from './qa-squad.ts';

const args = process.argv.slice(2);
const file = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
if (!file) throw new Error('pass the path of SQuAD 2.0 dev-v2.0.json');
const examplesWanted = Number(args[args.indexOf('--examples') + 1] ?? 0) || 0;

const holds = (text: string, golds: string[]) =>
  golds.some((g) => ` ${normaliseAnswer(text)} `.includes(` ${normaliseAnswer(g)} `));
const bucket = (rank: number) => (rank < 0 ? 'absent' : rank < 5 ? String(rank + 1) : rank < 10 ? '6-10' : '>10');
const count = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
const show = (m: Map<string, number>) =>
  [...m]
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');

const passageRank = new Map<string, number>();
const sentenceRank = new Map<string, number>();
const missedSentence = new Map<string, number>();
const missedSpan = new Map<string, number>();
const kinds = new Map<string, { n: number; f1: number }>();
const examples: string[] = [];
let answerable = 0;
let wrongPage = 0;

const articles = squadArticles(file, 'tune');
for (const article of articles) {
  const pages = articlePages(article);
  const { passages, sentences } = buildPassages(pages);
  const index = buildIndex(passages);
  const overview = keySentences(sentences);
  article.paragraphs.forEach((paragraph, i) => {
    const page = i + 1;
    for (const qa of paragraph.qas) {
      if (qa.is_impossible) continue;
      answerable++;
      const golds = qa.answers.map((a) => a.text);
      const answer = answerOffline(index, qa.question, overview, { minSupport: 0, minCoverage: 0 });
      const sentence = answer.sentences.join(' ');
      const short = answer.short?.text ?? sentence;
      const f1 = Math.max(...golds.map((g) => answerF1(short, g)));
      const kind = questionKind(qa.question);
      const k = kinds.get(kind.kind) ?? { n: 0, f1: 0 };
      kinds.set(kind.kind, { n: k.n + 1, f1: k.f1 + f1 });
      if (answer.citations[0]?.page === page) {
        if (!holds(sentence, golds)) count(missedSentence, kind.kind);
        else if (f1 < 0.5) {
          count(missedSpan, kind.kind);
          if (examples.length < examplesWanted) {
            examples.push(`span [${kind.kind}, focus ${kind.focus}] ${qa.question} | gold ${golds[0]} | got ${short}`);
          }
        }
        continue;
      }
      wrongPage++;
      const terms = queryTerms(qa.question);
      if (!terms.length) {
        count(passageRank, 'no question word');
        continue;
      }
      const hits = index.search.search(terms.join(' '), {
        combineWith: 'OR',
        fuzzy: (t) => (t.length > 5 ? 0.2 : false),
      });
      count(passageRank, bucket(hits.findIndex((h) => passages[h.id as number]!.page === page)));
      const ranked = rankSentences(passages, index.search, terms, termWeights(index.words, terms), {
        kind: kind.kind,
        questionWords: wordsOf(qa.question),
        names: questionNames(qa.question),
      });
      const gold = ranked.findIndex((r) => r.passage.page === page && holds(r.sentence.text, golds));
      count(sentenceRank, bucket(gold));
      if (examples.length < examplesWanted) {
        examples.push(`page [${kind.kind}] ${qa.question} | gold ${golds[0]} | its sentence ranked ${gold + 1}`);
      }
    }
  });
}

const pct = (n: number) => `${((100 * n) / answerable).toFixed(1)} %`;
const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
console.log(`${articles.length} tuning articles, ${answerable} answerable questions (answered without refusing)`);
console.log(`wrong page first: ${wrongPage} (${pct(wrongPage)})`);
console.log(`  right page's rank among BM25 passages: ${show(passageRank)}`);
console.log(`  gold sentence's rank among the ranked sentences: ${show(sentenceRank)}`);
console.log(`right page, gold not in the sentence: ${total(missedSentence)} (${show(missedSentence)})`);
console.log(`gold in the sentence, short answer F1 < 0.5: ${total(missedSpan)} (${show(missedSpan)})`);
console.log(
  `short answer F1 by kind: ${[...kinds].map(([k, v]) => `${k} ${((100 * v.f1) / v.n).toFixed(1)} (${v.n})`).join(', ')}`,
);
if (examples.length) console.log(examples.join('\n'));
