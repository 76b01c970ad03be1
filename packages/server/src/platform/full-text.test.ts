import { describe, expect, it } from 'vitest';
import { SEARCH_LIMITS, type Snippet } from '@studybuddy/shared/search';
import { passage, textMatch, textQuery, type TextQuery } from './full-text.ts';

const q = (input: string) => textQuery(input)!;
const marked = (s: Snippet) => s.marks.map(([a, b]) => s.text.slice(a, b));

describe('full-text queries', () => {
  it('keeps only words, quoted, every one required, the last as a prefix once it has two characters', () => {
    expect(textQuery('Library')).toMatchObject({ words: ['Library'], prefix: true, text: "'Library':*" });
    expect(textQuery('meet  the LIB')?.text).toBe("'meet' & 'the' & 'LIB':*");
    expect(textQuery('meet a')?.text).toBe("'meet' & 'a'");
    expect(textQuery("it's x:* | !y & (z) <-> 'w'")?.text).toBe("'it' & 's' & 'x' & 'y' & 'z' & 'w'");
    expect(textQuery(" '' :* !!! \\ ")).toBeNull();
    expect(textQuery('\u0301\u0301')).toBeNull();
    // NFC: a decomposed accent is one letter with its base, as the stored (composed) text has it.
    expect(textQuery('e\u0301cole')?.words).toEqual(['école']);
    const many = textQuery(Array.from({ length: 20 }, (_, i) => `w${i}`).join(' '))!;
    expect(many.words).toHaveLength(SEARCH_LIMITS.wordsMax);
    expect(textQuery('x'.repeat(500))!.words[0]).toHaveLength(SEARCH_LIMITS.wordMaxChars);
  });
});

describe('marking matches', () => {
  it('marks every word that matches, case-insensitively, the last query word as a prefix', () => {
    const s = textMatch('Meeting at the LIBRARY, library card needed', q('the libr'))!;
    expect(marked(s)).toEqual(['the', 'LIBRARY', 'library']);
    expect(textMatch('Meeting at noon', q('library'))).toBeNull();
    // Every query word must match some word; a non-last word only whole.
    expect(textMatch('meeting tomorrow', q('meet tomorrow'))).toBeNull();
    expect(marked(textMatch('ÉCOLE e\u0301cole', q('école'))!)).toEqual(['ÉCOLE', 'e\u0301cole']);
  });

  it('keeps markup as text and marks only the words around it', () => {
    const s = textMatch('x<y and y>z <b>bold</b>', q('bold'))!;
    expect(s.text).toBe('x<y and y>z <b>bold</b>');
    expect(marked(s)).toEqual(['bold']);
  });

  it('cuts a long text to a passage around the first match, at spaces, and says where it was cut', () => {
    const text = `${'alpha beta gamma '.repeat(40)}the needle is here ${'delta epsilon '.repeat(40)}`;
    const s = passage(text, q('needle'), 120);
    expect(s.text.length).toBeLessThanOrEqual(120);
    expect(marked(s)).toEqual(['needle']);
    expect(s).toMatchObject({ cutStart: true, cutEnd: true });
    expect(text.includes(s.text)).toBe(true);
    expect(s.text.startsWith(' ') || s.text.endsWith(' ')).toBe(false);
    const short = passage('  A needle.  ', q('needle'));
    expect(short).toEqual({ text: '  A needle.  ', marks: [[4, 10]], cutStart: false, cutEnd: false });
    const start: Snippet = passage(`needle ${'x '.repeat(200)}`, q('needle') as TextQuery, 50);
    expect(start).toMatchObject({ cutStart: false, cutEnd: true, marks: [[0, 6]] });
    // A text without spaces is still cut to the passage's length.
    expect(passage('y'.repeat(1000), q('yy'), 100).text.length).toBeLessThanOrEqual(100);
  });
});
