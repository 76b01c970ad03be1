import { describe, expect, it } from 'vitest';
import winkNLP, { type ItemSentence, type ItemToken, type ItsFunction } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { trimLineEnds, trimTrailing } from '@studybuddy/shared/text-scan';
import { sections } from '../extraction/sections.ts';
import { htmlToText, looksLikeHtml } from '../html-text.ts';
import { analyse, forWink, READ_BUDGET, readableLength, type Sentence } from './text-analysis.ts';

const pick4 = ({ terms, phrases, words }: Sentence) => ({ terms, phrases, words });

// Generous bounds that catch a hang: the quadratic versions took from seconds to minutes on these inputs. Counted
// in CPU time: wall-clock time grows with whatever else the machine runs (3,061 ms at load 20).
const BOUND_MS = 3000;

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

function timed<T>(fn: () => T): { value: T; ms: number } {
  const t0 = cpuMs();
  const value = fn();
  return { value, ms: cpuMs() - t0 };
}

/** A random text made of the given pieces (seeded, so a failure reproduces). */
function randomText(pieces: string[], count: number, seed: number): string {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: count }, () => pieces[Math.floor(next() * pieces.length)]).join('');
}

// The regex versions these functions replaced, to check the output did not change on ordinary input.
function oldSections(text: string): string[] {
  const clean = text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+\n/g, '\n') // eslint-disable-line regexp/no-super-linear-move
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (!clean) return [];
  const paragraphs = clean.split(/\n(?=\s*\S)/); // eslint-disable-line regexp/no-super-linear-move
  const out: string[] = [];
  let current: string[] = [];
  let words = 0;
  for (const p of paragraphs) {
    const w = p.split(/\s+/).filter(Boolean).length;
    if (words && words + w > 400) {
      out.push(current.join('\n').trim());
      current = [];
      words = 0;
    }
    current.push(p);
    words += w;
  }
  if (current.length) out.push(current.join('\n').trim());
  return out;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
function oldHtmlToText(html: string): string {
  return (
    html
      .replace(/<(script|style|noscript)[\s\S]*?<\/\1>/gi, ' ')
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(/<\/(?:p|div|li|h[1-6]|tr|section|article|blockquote|pre)>/gi, '\n\n')
      .replace(/<li[^>]*>/gi, '- ')
      .replace(/<[^>]+>/g, ' ') // eslint-disable-line regexp/no-super-linear-move
      .replace(/&(#x?[0-9a-f]+|\w+);/gi, (m, code: string) => {
        if (code.startsWith('#')) {
          const n = code[1]?.toLowerCase() === 'x' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
          return Number.isFinite(n) && n > 0 && n < 0x110000 ? String.fromCodePoint(n) : ' ';
        }
        return ENTITIES[code.toLowerCase()] ?? m;
      })
      .replace(/[ \t]+/g, ' ')
      // eslint-disable-next-line regexp/no-super-linear-move
      .replace(/ *\n */g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  );
}

/**
 * What `analyse` read from wink before it asked for sentences and parts of speech only and read the tokens'
 * properties in bulk: the full pipeline, one item per token and property.
 */
const fullWink = winkNLP(model);
function oldWinkReading(text: string) {
  const its = fullWink.its;
  const out: { text: string; terms: string[]; phrases: string[]; words: number }[] = [];
  fullWink
    .readDoc(text)
    .sentences()
    .each((s: ItemSentence) => {
      const trimmed = s.out().trim();
      if (!trimmed) return;
      const terms: string[] = [];
      const phrases: string[] = [];
      let run: string[] = [];
      let runEndsNoun = false;
      let words = 0;
      const flush = () => {
        if (run.length && runEndsNoun) phrases.push(run.slice(-3).join(' '));
        run = [];
        runEndsNoun = false;
      };
      s.tokens().each((tok: ItemToken) => {
        const type = tok.out(its.type);
        if (type !== 'word' && type !== 'number' && type !== 'ordinal') return flush();
        words++;
        const stop = tok.out(its.stopWordFlag) as unknown as boolean;
        const normal = tok.out(its.normal);
        if (!stop && type === 'word' && normal.length > 1)
          terms.push(tok.out(its.stem as unknown as ItsFunction<string>));
        else if (type !== 'word') terms.push(normal);
        const pos = tok.out(its.pos);
        if (!stop && ['NOUN', 'PROPN', 'ADJ'].includes(pos) && type === 'word' && normal.length > 2) {
          run.push(tok.out());
          runEndsNoun = pos !== 'ADJ';
        } else flush();
      });
      flush();
      out.push({ text: trimmed, terms, phrases, words });
    });
  return out;
}

// Words of every kind wink tells apart (stop words, nouns, verbs, numbers, ordinals, abbreviations, e-mail,
// URL, hashtag, emoji, contractions), punctuation and line breaks.
const WORDS = [
  'The',
  'the',
  'a',
  'of',
  'is',
  'not',
  "isn't",
  'cell',
  'cells',
  'Mitochondria',
  'produce',
  'energy',
  'quickly',
  'large',
  'red',
  'Dr.',
  'Smith',
  'Oct.',
  '3rd',
  '101',
  '4.5',
  '$20',
  'e.g.',
  'BIO',
  'exam',
  'midterm',
  'on',
  'Friday',
  'ada@example.edu',
  'https://canvas.example/x',
  '#bio',
  '😀',
  '<a',
  '<',
  '>',
  '(see',
  'notes)',
  '"quoted"',
  'and',
  'but',
  'very',
  'good',
  'students',
  'running',
  'ran',
  'photosynthesis',
  'chloroplasts',
  'I',
  'we',
];
const SEPARATORS = [' ', ' ', ' ', ' ', ', ', '. ', '! ', '? ', '; ', '\n', '\n\n', '  '];

const PROSE = ['Cells', ' ', 'divide', '  ', '\t', '\n', '\n\n', '\r\n', ' \n', '\u00a0', 'mitosis.', '\f', 'DNA'];
const HTML = [
  '<p>',
  '</p>',
  '<br>',
  '<br />',
  '<li class="x">',
  '</li>',
  '<b>',
  '</b>',
  '<h2>',
  '</h2>',
  '<script>var a = 1;</script>',
  '<STYLE>p{}</STYLE>',
  '&amp;',
  '&#233;',
  '&nbsp;',
  'Lab',
  ' ',
  '\t',
  '\n',
  'due Friday',
  '<div>',
  '</div>',
];

describe('text passes stay linear on hostile input and unchanged on ordinary input', () => {
  it('cuts plain text into the same sections as before', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const text = randomText(PROSE, 20 + (seed % 200) * 5, seed);
      expect(
        sections(text).map((s) => s.text),
        `seed ${seed}`,
      ).toEqual(oldSections(text));
    }
  });

  it('reads HTML into the same text as before', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const html = randomText(HTML, 10 + (seed % 100) * 3, seed);
      expect(htmlToText(html), `seed ${seed}`).toBe(oldHtmlToText(html));
      expect(looksLikeHtml(html), `seed ${seed}`).toBe(/<[a-z][\s\S]*>/i.test(html));
    }
    expect(looksLikeHtml('a < b and c > d')).toBe(false);
    expect(looksLikeHtml('<b')).toBe(false);
    expect(looksLikeHtml('x <b>')).toBe(true);
  });

  it('trims trailing characters and line ends like the regexes did', () => {
    expect(trimTrailing('https://canvas.example///', '/')).toBe('https://canvas.example');
    expect(trimTrailing('///', '/')).toBe('');
    expect(trimLineEnds('a \t\nb  \n c\t')).toBe('a\nb\n c');
  });

  it.each([
    ['"a" + 400,000 spaces + "b"', `a${' '.repeat(400_000)}b`, [`a${' '.repeat(400_000)}b`]],
    ['100,000 lines of a space', ' \n'.repeat(100_000), []],
    ['100,000 lines of a no-break space', '\u00a0\n'.repeat(100_000), []],
    ['a 400,000-character word', 'x'.repeat(400_000), ['x'.repeat(400_000)]],
    ['400,000 tabs then a word', `${'\t'.repeat(400_000)}word`, ['word']],
  ])('sections of %s', (_name, text, expected) => {
    const { value, ms } = timed(() => sections(text));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(value.map((s) => s.text)).toEqual(expected);
  });

  it.each([
    ['200 KB of "<"', '<'.repeat(200_000), '<'.repeat(200_000)],
    ['an unclosed "<a " 60,000 times', '<a '.repeat(60_000), '<a '.repeat(60_000).trim()],
    ['"<li" 60,000 times', '<li'.repeat(60_000), '<li'.repeat(60_000)],
    ['an unclosed <script> 30,000 times', '<script>x'.repeat(30_000), Array(30_000).fill('x').join(' ')],
    ['"a" + 400,000 spaces + "b"', `a${' '.repeat(400_000)}b`, 'a b'],
    ['100,000 lines of spaces', 'x  \n  '.repeat(100_000), Array(100_000).fill('x').join('\n')],
  ])('HTML to text of %s', (_name, html, expected) => {
    const { value, ms } = timed(() => htmlToText(html));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(value).toBe(expected);
    expect(timed(() => looksLikeHtml(html)).ms).toBeLessThan(BOUND_MS);
  });

  it.each([
    ['20,000 lines of a space', ' \n'.repeat(20_000)],
    ['20,000 times "!?"', '!?'.repeat(20_000)],
    ['20,000 lines of a no-break space', '\u00a0\n'.repeat(20_000)],
    ['a 100,000-character word', 'x'.repeat(100_000)],
    ['prose between 100,000 blank lines', `Cells divide by mitosis.${' \n'.repeat(50_000)}Enzymes speed up reactions.`],
  ])('sentence analysis of %s', (_name, text) => {
    const { value, ms } = timed(() => analyse(text));
    expect(ms).toBeLessThan(BOUND_MS);
    for (const s of value) expect(text.slice(s.start, s.end)).toBe(s.text);
  });

  it('reads the same sentences, terms, phrases and word counts from wink as the full pipeline did', () => {
    for (let seed = 1; seed <= 150; seed++) {
      let x = seed;
      const next = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
      const pick = (list: string[]) => list[Math.floor(next() * list.length)]!;
      const text = Array.from({ length: 20 + (seed % 50) * 8 }, () => pick(WORDS) + pick(SEPARATORS)).join('');
      const fed = forWink(text);
      const now = analyse(text).map((s) => ({ text: fed.slice(s.start, s.end), ...pick4(s) }));
      expect(now, `seed ${seed}`).toEqual(oldWinkReading(fed));
    }
  });

  it('gives wink a text of the same length, so offsets carry over', () => {
    const text = `Dr. Smith\u00a0teaches.\t\n \n \nIt is ${'y'.repeat(250)} and 😀${'😀'.repeat(120)}.`;
    const fed = forWink(text);
    expect(fed).toHaveLength(text.length);
    expect(fed).not.toMatch(/[\t\u00a0]|\n{3}/);
    expect(fed).not.toMatch(/[^ \n]{101}/u);
    expect([...fed].every((ch) => ch.length === 2 || !/[\uD800-\uDFFF]/.test(ch))).toBe(true);
    expect(analyse(text).map((s) => s.text)[0]).toBe('Dr. Smith\u00a0teaches.');
  });

  it('reads prose whole, but a text of symbols only up to the read budget', () => {
    const prose =
      'Photosynthesis turns light into chemical energy; cells store it as ATP (mostly) in their mitochondria. ';
    const book = prose.repeat(Math.ceil(500_000 / prose.length)).slice(0, 500_000);
    expect(readableLength(book)).toBe(book.length);
    for (const unit of ['<a ', '"a ', 'a/b ', '<']) {
      const text = unit.repeat(Math.ceil(480_000 / unit.length));
      const read = readableLength(text);
      expect(read, unit).toBeLessThan(text.length / 4);
      expect(read, unit).toBeGreaterThan(READ_BUDGET / 25);
    }
    // What is left out is left out of the sentences too; what is read keeps its offsets.
    const tail = `${'<a '.repeat(160_000)}Mitochondria make energy.`;
    const sentences = analyse(tail);
    expect(sentences.map((s) => s.text).join(' ')).not.toContain('Mitochondria');
    for (const s of sentences) expect(tail.slice(s.start, s.end)).toBe(s.text);
  });
});
