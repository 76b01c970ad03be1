import { describe, expect, it } from 'vitest';
import { readModelAnswer } from './llm-answer.ts';

const passages = [
  { label: 'page 1', text: 'Welcome to the course. We meet twice a week.' },
  {
    label: 'page 3',
    text: 'Exams and grading. The final exam counts for 40 percent of the grade. Reports count for 30 percent.',
  },
];

describe("a model's answer read short answer first", () => {
  it('takes the words from the first line and the sentence from the cited passage itself', () => {
    const read = readModelAnswer('40 percent\n"The final exam counts for 40 percent of the grade." [2]', passages);
    expect(read.short).toEqual({
      text: '40 percent',
      sentence: 'The final exam counts for 40 percent of the grade.',
      start: 26,
      end: 36,
    });
    expect(read.cited).toEqual([2]);
  });

  it("finds the sentence holding the words when the quote is not the document's, keeping the text's own case", () => {
    const read = readModelAnswer('Answer: FORTY percent? no: 40 PERCENT\nSentence: the final one [2]', passages);
    expect(read.short).toBeNull();
    const plain = readModelAnswer('Answer: 40 PERCENT\nSentence: it counts a lot [2]', passages);
    expect(plain.short?.text).toBe('40 percent');
    expect(plain.short?.sentence).toBe('The final exam counts for 40 percent of the grade.');
  });

  it('has no short answer for a reply of one line or words found in no passage', () => {
    expect(readModelAnswer('The final exam counts for 40 percent [2].', passages)).toMatchObject({
      short: null,
      cited: [2],
    });
    expect(readModelAnswer('12 weeks\nThe course lasts 12 weeks. [1]', passages).short).toBeNull();
  });
});
