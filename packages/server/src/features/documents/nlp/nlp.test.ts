import { describe, expect, it } from 'vitest';
import { htmlToText } from '../html-text.ts';
import { safeFileName } from '../storage-paths.ts';
import { answerOffline, buildIndex } from './answer.ts';
import { buildPassages } from './passages.ts';
import { keySentences, keyTerms, summaryLength } from './summarise.ts';
import { analyse, queryTerms } from './text-analysis.ts';

const page = (n: number, text: string) => ({ page: n, unit: 'page' as const, label: `page ${n}`, text });

describe('offline text engine', () => {
  it('splits sentences with exact offsets into the original text', () => {
    const text = 'Dr. Smith teaches BIO 101.  The exam is on Oct. 3rd!\n\nIs it hard? Yes.';
    const sentences = analyse(text);
    expect(sentences.map((s) => s.text)).toEqual([
      'Dr. Smith teaches BIO 101.',
      'The exam is on Oct. 3rd!',
      'Is it hard?',
      'Yes.',
    ]);
    for (const s of sentences) expect(text.slice(s.start, s.end)).toBe(s.text);
  });

  it('drops the words that only make a question', () => {
    expect(queryTerms('When is the midterm exam?')).toEqual(['midterm', 'exam']);
    expect(queryTerms('What does this document say about enzymes?')).toEqual(['enzym']);
  });

  it('matches a name with or without its accents, and reads no possessive as a word', () => {
    expect(queryTerms("What was Kublai's relation to Ogedei?")).toEqual(['kublai', 'relat', 'ogedei']);
    expect(analyse('Ögedei offered his nephew Kublai a position.')[0]!.terms).toContain('ogedei');
    expect(analyse("Kublai's nephew’s army")[0]!.terms).toEqual(['kublai', 'nephew', 'armi']);
    const { passages } = buildPassages([
      page(1, 'The army offered the young prince a position in the capital after the war.'),
      page(2, 'Ögedei offered his nephew Kublai a position in Xingzhou.'),
    ]);
    const answer = answerOffline(buildIndex(passages), 'Whom did Ogedei offer a position?');
    expect(answer.citations[0]?.page).toBe(2);
    expect(answer.short?.text).toBe('Kublai');
  });

  it('ranks central sentences (TextRank) and keeps them in reading order without near-duplicates', () => {
    const text = [
      'Photosynthesis turns light energy into chemical energy in plants.',
      'The weather was pleasant during the field trip last spring.',
      'Chlorophyll absorbs light energy for photosynthesis in the chloroplast.',
      'Plants store the chemical energy of photosynthesis as glucose.',
      'Plants store the chemical energy from photosynthesis as glucose sugar.',
      'The bus left at nine in the morning.',
    ].join(' ');
    const sentences = analyse(text);
    const picked = keySentences(sentences, 3).map((s) => s.text);
    expect(picked).not.toContain('The bus left at nine in the morning.');
    expect(picked).not.toContain('The weather was pleasant during the field trip last spring.');
    expect(picked.filter((s) => s.startsWith('Plants store'))).toHaveLength(1);
    const order = picked.map((s) => text.indexOf(s));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(keyTerms(sentences).map((k) => k.toLowerCase())).toEqual(expect.arrayContaining(['photosynthesis']));
  });

  it('sizes summaries at about √n sentences, 3 to 8', () => {
    expect([summaryLength(4), summaryLength(36), summaryLength(100), summaryLength(5000)]).toEqual([3, 5, 8, 8]);
  });

  it('cuts pages into ~150-word passages that never cross pages, with offsets into their page', () => {
    const long = Array.from(
      { length: 40 },
      (_, i) => `Sentence number ${i} talks about cell membranes and transport.`,
    ).join(' ');
    const { passages } = buildPassages([page(1, long), page(2, 'A short second page about ribosomes.')]);
    expect(passages.length).toBeGreaterThan(2);
    expect(passages.filter((p) => p.page === 2)).toHaveLength(1);
    for (const p of passages) {
      const source = p.page === 1 ? long : 'A short second page about ribosomes.';
      expect(source.slice(p.start, p.end)).toBe(p.text);
    }
    const pageOne = passages.filter((p) => p.page === 1);
    expect(pageOne.slice(0, -1).every((p) => p.text.split(/\s+/).length >= 150)).toBe(true);
  });

  it('answers with the best sentence and its page, or says it found nothing', () => {
    const { passages, sentences } = buildPassages([
      page(1, 'Welcome to the course. We meet twice a week in the lecture hall.'),
      page(2, 'The final project is due on December 12. Submit it as a PDF on Canvas.'),
    ]);
    const index = buildIndex(passages);
    const found = answerOffline(index, 'When is the final project due?', keySentences(sentences));
    expect(found).toMatchObject({ found: true, citations: [{ page: 2, label: 'page 2' }] });
    expect(found.sentences[0]).toBe('The final project is due on December 12.');
    const missing = answerOffline(index, 'Who won the football game?', keySentences(sentences));
    expect(missing).toMatchObject({ found: false, sentences: [], citations: [] });
  });

  it('turns LMS HTML into readable text', () => {
    expect(
      htmlToText(
        '<h1>Lab&nbsp;2</h1><p>Due <b>Friday</b> &amp; on time.</p><script>x()</script><ul><li>a</li><li>b</li></ul>',
      ),
    ).toBe('Lab 2\n\nDue Friday & on time.\n\n- a\n\n- b');
  });

  it('keeps stored file names safe', () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('Lecture 1 – Cells (final).pdf')).toBe('Lecture_1_Cells_final_.pdf');
    expect(safeFileName('...')).toBe('file');
  });
});
