import { sql, type SQL } from 'drizzle-orm';
import { SEARCH_LIMITS, searchWords, wordsOf, type Snippet } from '@studybuddy/shared/search';

/**
 * PostgreSQL full-text search as every feature uses it (PGlite has the same): the 'simple' configuration
 * (lower-cased words, no stemming: see migrations/0013_search.sql) and queries built from sanitised words only.
 * The matched words are marked here, as ranges of the stored text itself: ts_headline would drop anything its
 * parser takes for an HTML tag ("x<y and y>z"), so a passage would no longer be what was written.
 */

export const FTS_CONFIG = sql.raw(`'simple'::regconfig`);

/** A query the database can run: every word must occur; the last one may be the start of a word (as typed). */
export interface TextQuery {
  words: string[];
  /** The last word is matched as a prefix. */
  prefix: boolean;
  /** The tsquery as `to_tsquery('simple', …)` reads it. */
  text: string;
}

/**
 * Builds the query from what the student typed, or null when no word is left. Words are runs of letters, marks
 * and digits only, each quoted, so nothing the student types can change the query's syntax.
 */
export function textQuery(input: string): TextQuery | null {
  const words = searchWords(input);
  if (!words.length) return null;
  const prefix = [...words.at(-1)!].length >= SEARCH_LIMITS.prefixMinChars;
  const terms = words.map((w, i) => (prefix && i === words.length - 1 ? `'${w}':*` : `'${w}'`));
  return { words, prefix, text: terms.join(' & ') };
}

/** The tsquery value of a built query. */
export const tsquery = (q: TextQuery): SQL => sql`to_tsquery(${FTS_CONFIG}, ${q.text})`;

/** The tsvector of a text, as the migration's indexes build it (compare with `@@ tsquery(q)`). */
export const tsvector = (text: SQL): SQL => sql`to_tsvector(${FTS_CONFIG}, ${text})`;

/**
 * Ranges of the words of `text` that match a query word (the last as a prefix), and whether every query word
 * matched; with `first`, only the first matching word (the scan stops there).
 */
function matchWords(text: string, q: TextQuery, first = false): { marks: [number, number][]; all: boolean } {
  const wanted = q.words.map((w) => w.toLowerCase());
  const last = wanted.length - 1;
  const found = new Set<number>();
  const marks: [number, number][] = [];
  for (const { word: raw, index } of wordsOf(text)) {
    const word = raw.normalize('NFC').toLowerCase();
    let any = false;
    wanted.forEach((w, i) => {
      if (word === w || (q.prefix && i === last && word.startsWith(w))) {
        found.add(i);
        any = true;
      }
    });
    if (!any) continue;
    marks.push([index, index + raw.length]);
    if (first) break;
  }
  return { marks, all: found.size === wanted.length };
}

/**
 * The whole text with its matching words marked, or null when a query word matches none of its words: for short
 * texts (names, titles) and for those matched outside the database (coursework items in the LMS cache).
 */
export function textMatch(text: string, q: TextQuery): Snippet | null {
  const { marks, all } = matchWords(text, q);
  return all ? { text, marks, cutStart: false, cutEnd: false } : null;
}

/** The [start, end) of the first word of `text` that matches a query word, or null. */
export function firstMatch(text: string, q: TextQuery): [number, number] | null {
  return matchWords(text, q, true).marks[0] ?? null;
}

/** How far a passage reaches back before its first match, in characters. */
const LEAD = 60;

/**
 * A passage of at most `maxChars` of a text the database matched, around its first marked word, cut at spaces
 * (unless a word is longer than the passage), with its matches marked. Only the text up to the first match and
 * the passage itself are read.
 */
export function passage(text: string, q: TextQuery, maxChars = 200): Snippet {
  if (text.length <= maxChars) return { text, marks: matchWords(text, q).marks, cutStart: false, cutEnd: false };
  const first = firstMatch(text, q)?.[0] ?? 0;
  let start = Math.max(0, Math.min(first - LEAD, text.length - maxChars));
  let end = Math.min(text.length, start + maxChars);
  const space = (i: number) => /\s/.test(text[i] ?? ' ');
  // Move the cuts to spaces, by at most a quarter of the passage each.
  for (let k = 0; start > 0 && !space(start - 1) && k < maxChars / 4; k++) start++;
  for (let k = 0; end < text.length && !space(end) && k < maxChars / 4; k++) end--;
  const shown = text.slice(start, end);
  const body = shown.trim();
  const from = start + (shown.length - shown.trimStart().length);
  return {
    text: body,
    marks: matchWords(body, q).marks,
    cutStart: from > text.length - text.trimStart().length,
    cutEnd: from + body.length < text.trimEnd().length,
  };
}
