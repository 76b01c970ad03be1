import { describe, expect, it } from 'vitest';
import { BIOLOGY_PAGES } from '../test/biology.ts';
import { answerSpan, listCandidates } from './answer-span.ts';
import { sentenceTokens } from './sentence-tokens.ts';
import { answerOffline, buildIndex, MIN_SUPPORT } from './answer.ts';
import { buildPassages } from './passages.ts';
import { questionKind } from './question-kind.ts';
import { rankSentences, termWeights } from './sentence-rank.ts';
import { queryTerms } from './text-analysis.ts';

const page = (n: number, text: string) => ({ page: n, unit: 'page' as const, label: `page ${n}`, text });
const span = (sentence: string, question: string) =>
  answerSpan(sentence, new Set(queryTerms(question)), questionKind(question));

describe('the kind of answer a question asks for', () => {
  it('reads it from the question words', () => {
    expect(questionKind('When is the midterm exam?').kind).toBe('date');
    expect(questionKind('In what year did the war end?')).toMatchObject({ kind: 'date', focus: 'year' });
    expect(questionKind('How many students passed?').kind).toBe('number');
    expect(questionKind('What percentage of the grade is the final?').kind).toBe('number');
    expect(questionKind('Who wrote the textbook?')).toMatchObject({ kind: 'person', subject: true });
    expect(questionKind('Who did Emma marry?')).toMatchObject({ kind: 'person', subject: false });
    expect(questionKind('Which Swiss city was the centre of the movement?')).toMatchObject({
      kind: 'place',
      focus: 'city',
    });
    expect(questionKind('Why did the price of oil rise?').kind).toBe('reason');
    expect(questionKind('What were the towns called?').kind).toBe('name');
    expect(questionKind('What kind of arches does the style have?')).toMatchObject({ kind: 'thing', focus: 'arches' });
  });
});

describe('short answers: the span of the sentence that answers', () => {
  it('finds dates, numbers, places and people by the question word', () => {
    const exam = 'The midterm exam is on October 3 in Franz Hall.';
    expect(span(exam, 'When is the midterm exam?')?.text).toBe('October 3');
    expect(span(exam, 'Where is the midterm exam?')?.text).toBe('Franz Hall');
    expect(
      span('The final exam counts for 40 percent of the course grade.', 'How much does the final exam count?')?.text,
    ).toBe('40 percent');
    expect(
      span('In 1066, Duke William II of Normandy conquered England.', 'When did William conquer England?')?.text,
    ).toBe('1066');
    expect(span('The French and Indian War (1754–1763) was a war.', 'When was the French and Indian War?')?.text).toBe(
      '1754–1763',
    );
    expect(
      span(
        'Some members of this community emigrated to the United States in the 1890s.',
        'In what decade did they emigrate?',
      )?.text,
    ).toBe('1890s');
  });

  it('takes the subject for "who did it" and the name after a title or a person noun', () => {
    expect(
      span('Edward the Confessor had set up the aforementioned Ralph as earl of Hereford.', 'Who made Ralph earl?')
        ?.text,
    ).toBe('Edward the Confessor');
    expect(
      span(
        'Around 1294, a French version of the Scriptures was prepared by the Roman Catholic priest, Guyard de Moulin.',
        'Who prepared the French version of the Scriptures?',
      )?.text,
    ).toBe('Guyard de Moulin');
  });

  it('finds a modifier of the asked noun, a quoted name, and a reason', () => {
    expect(
      span('Their style was characterised by rounded arches over windows.', 'What kind of arches does the style have?')
        ?.text,
    ).toBe('rounded');
    expect(
      span(
        'Montpellier was among the 66 "villes de sûreté" that the Edict of 1598 granted.',
        'What were the towns called?',
      )?.text,
    ).toBe('villes de sûreté');
    expect(
      span(
        'Saudi Arabia increased production because it wanted to recover market share.',
        'Why did Saudi Arabia increase production?',
      )?.text,
    ).toBe('wanted to recover market share');
  });

  it('answers a question asking for several things with the whole list, and a question asking one with one', () => {
    expect(questionKind('Which dynasties were documented?').several).toBe(true);
    expect(questionKind('What were the two neighbourhoods built in Berlin?').several).toBe(true);
    expect(questionKind('Which dynasty was documented?').several).toBe(false);
    const histories = 'During his reign the official histories of the Liao, Jin, and Song dynasties were compiled.';
    expect(span(histories, 'Which dynasties had their histories compiled during his reign?')?.text).toBe(
      'Liao, Jin, and Song',
    );
    const crops = 'Carrots, turnips and lemons were introduced in the period.';
    expect(span(crops, 'What crops were introduced in the period?')?.text).toBe('Carrots, turnips and lemons');
    expect(span('The capital of the province is Lyon, and Paris is far.', 'Which city is the capital?')?.text).toBe(
      'Lyon',
    );
    // A list of 150 grains is no short answer: only the lists of its last 30 tokens are read (each list read costs
    // its length, so all of them would cost the square of the sentence).
    const many = Array.from({ length: 150 }, (_, i) => `grain${i}`).join(', ');
    const found = listCandidates(sentenceTokens(`The crops were ${many} and cotton.`));
    expect(found.length).toBeGreaterThan(0);
    expect(Math.max(...found.map((c) => c.to - c.from))).toBeLessThan(30);
  });

  it('does not answer with what is left of a name the question holds ("IV" of "Henry IV")', () => {
    expect(span('In 1610 Henry IV was succeeded by the young Louis XIII.', 'Who succeeded Henry?')?.text).toBe(
      'Louis XIII',
    );
  });

  it("gives offsets into the sentence and never answers with the question's own words", () => {
    const sentence = 'Mitochondria   produce ATP through cellular respiration.';
    const found = span(sentence, 'What do mitochondria produce?')!;
    expect(sentence.slice(found.start, found.end)).toBe(found.text);
    expect(found.text).toBe('ATP');
    expect(span('Mitochondria produce energy.', 'What do mitochondria produce energy with?')).toBeNull();
  });
});

describe('ranking the retrieved sentences', () => {
  it('puts question words that stand together, in order, above the same words scattered', () => {
    const scattered = 'The final part of the course is hard, and an exam grade was posted online.';
    const together = 'The final exam grade is posted online.';
    const { passages } = buildPassages([page(1, `${scattered} ${together}`), page(2, 'Grades are private.')]);
    const terms = queryTerms('When is the final exam grade posted online?');
    const index = buildIndex(passages);
    const ranked = rankSentences(passages, index.search, terms, termWeights(index.words, terms));
    expect(ranked.map((r) => r.sentence.text).slice(0, 2)).toEqual([together, scattered]);
    expect(ranked[0]!.coverage).toBe(1);
    expect(ranked[0]!.score).toBeGreaterThan(ranked[1]!.score);
  });

  it('weighs rare question words over common ones', () => {
    const { passages } = buildPassages([
      page(1, 'Cells divide. Cells grow. Cells need energy from food every day.'),
      page(2, 'Cells make ribosomes in the nucleolus.'),
      page(3, 'Cells are small.'),
    ]);
    const terms = queryTerms('Where do cells make ribosomes?');
    const index = buildIndex(passages);
    const weights = termWeights(index.words, terms);
    expect(weights.get('ribosom')!).toBeGreaterThan(weights.get('cell')!);
    const ranked = rankSentences(passages, index.search, terms, weights);
    expect(ranked[0]!.sentence.text).toBe('Cells make ribosomes in the nucleolus.');
  });
});

describe('the offline answer', () => {
  const pages = BIOLOGY_PAGES.map((lines, i) => page(i + 1, lines.join(' ')));
  const index = buildIndex(buildPassages(pages).passages);

  it('gives the short answer, its sentence and page first, then further passages', () => {
    const answer = answerOffline(index, 'How many mitochondria do muscle cells contain?');
    expect(answer.found).toBe(true);
    expect(answer.short).toMatchObject({
      text: 'thousands',
      sentence: 'Cells with high energy needs, such as muscle cells, contain thousands of mitochondria.',
    });
    expect(answer.short!.sentence.slice(answer.short!.start, answer.short!.end)).toBe('thousands');
    expect(answer.citations[0]).toMatchObject({ page: 2, label: 'page 2' });
    expect(answer.citations.length).toBeGreaterThan(1);
    expect(new Set(answer.citations.map((c) => `${c.page}:${c.start}`)).size).toBe(answer.citations.length);
  });

  it('says it is not in the document when the best sentence holds too little of the question', () => {
    const answer = answerOffline(index, 'What is the capital of France?');
    expect(answer).toMatchObject({ found: false, short: null, citations: [] });
    // One of four rare words in the best sentence: under the coverage floor fitted on SQuAD 2.0.
    const question = 'Which glacier melted in the Permian extinction of mitochondria?';
    expect(answerOffline(index, question).found).toBe(false);
    expect(answerOffline(index, question, [], { minSupport: 0, minCoverage: 0 }).found).toBe(true);
    const strong = answerOffline(index, 'How many mitochondria do muscle cells contain?');
    expect(strong.support).toBeGreaterThan(MIN_SUPPORT);
  });
});
