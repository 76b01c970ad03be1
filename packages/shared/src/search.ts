import { z } from 'zod';
import type { GroupKind } from './groups.ts';
import { MSG } from './messages.ts';
import { ROUTES } from './routes.ts';
import type { CourseworkHit, DocumentHit, GroupHit, MessageHit, PersonHit } from './search-responses.ts';

/** Contracts of the one search box (issue 17): people, groups, messages, coursework and course documents. */

export const SEARCH_LIMITS = {
  /** Longest query, in characters. */
  queryMaxChars: 100,
  /** Words of a query that count (the rest are ignored). */
  wordsMax: 8,
  /** A longer word is cut to this length (no real word is longer; the index ignores longer ones). */
  wordMaxChars: 64,
  /** The last word is matched as a prefix (students search as they type) from this many characters on. */
  prefixMinChars: 2,
  /** Results per kind. */
  perKindDefault: 5,
  perKindMax: 20,
  /** Searches per student and minute (one per keystroke pause). */
  perMinute: 240,
  /** Searches of one student in work at once (the dialog has one in flight; its queries are the costliest). */
  inFlight: 2,
  /** The dialog waits this long after the last keystroke before it asks. */
  debounceMs: 150,
} as const;

const WORD_START = /[\p{L}\p{N}]/u;
const WORD_PART = /[\p{L}\p{M}\p{N}]/u;

/**
 * The words of a text as the search sees them, with where each starts (UTF-16 index): runs of letters, digits and
 * combining marks that start with a letter or digit; anything else separates words. One pass, code point by
 * code point.
 */
export function* wordsOf(text: string): Generator<{ word: string; index: number }> {
  let start = -1;
  let i = 0;
  for (const ch of text) {
    if (start >= 0 && !WORD_PART.test(ch)) {
      yield { word: text.slice(start, i), index: start };
      start = -1;
    }
    if (start < 0 && WORD_START.test(ch)) start = i;
    i += ch.length;
  }
  if (start >= 0) yield { word: text.slice(start), index: start };
}

export const SEARCH_KINDS = ['people', 'groups', 'messages', 'coursework', 'documents'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export const searchQuerySchema = z.object({
  q: z
    .string({ error: MSG.search.queryRequired })
    .trim()
    .min(1, MSG.search.queryRequired)
    .max(SEARCH_LIMITS.queryMaxChars, MSG.search.queryTooLong(SEARCH_LIMITS.queryMaxChars)),
  limit: z.coerce.number().int().min(1).max(SEARCH_LIMITS.perKindMax).default(SEARCH_LIMITS.perKindDefault),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/**
 * The words of a query as they are searched: runs of letters, digits and combining marks starting with a letter
 * or digit (anything else separates words), normalised (NFC), at most `wordsMax` of them, each at most
 * `wordMaxChars` long. Empty when nothing searchable is left.
 */
export function searchWords(q: string): string[] {
  const words: string[] = [];
  for (const { word } of wordsOf(q.normalize('NFC'))) {
    if (words.length === SEARCH_LIMITS.wordsMax) break;
    words.push([...word].slice(0, SEARCH_LIMITS.wordMaxChars).join(''));
  }
  return words;
}

export type {
  CourseworkHit,
  DocumentHit,
  GroupHit,
  MessageHit,
  PersonHit,
  SearchResults,
  Snippet,
} from './search-responses.ts';

/** The query parameter naming the message a conversation opens at (its cursor). */
export const MESSAGE_PARAM = 'message';

const query = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;
const groupParams = (id: string, kind: GroupKind | null) => ({ ...(kind === 'hot' ? { tab: 'hot' } : {}), group: id });

/** Where each kind of result opens. */
export const searchPaths = {
  friend: (uid: string) => `${ROUTES.friends}${query({ friend: uid })}`,
  /** A student who is not a friend: their card in the match finder (found again there by their name). */
  student: (hit: Pick<PersonHit, 'uid' | 'name'>) =>
    `${ROUTES.matchmaking}${query({ student: hit.uid, name: hit.name.text })}`,
  group: (hit: Pick<GroupHit, 'id' | 'kind'>) => `${ROUTES.groups}${query(groupParams(hit.id, hit.kind))}`,
  /** The conversation, opened at the message (`message` is its cursor). */
  message: (hit: Pick<MessageHit, 'conversation' | 'peerId' | 'groupKind' | 'cursor'>) =>
    hit.conversation.kind === 'chat'
      ? `${ROUTES.friends}${query({ friend: hit.peerId ?? '', [MESSAGE_PARAM]: String(hit.cursor) })}`
      : `${ROUTES.groups}${query({ ...groupParams(hit.conversation.id, hit.groupKind), [MESSAGE_PARAM]: String(hit.cursor) })}`,
  coursework: (hit: Pick<CourseworkHit, 'id'>) => `${ROUTES.assignments}${query({ item: hit.id })}`,
  /** The document's text at the page, its first matched word highlighted (`at=start-end`). */
  document: (hit: Pick<DocumentHit, 'courseId' | 'documentId' | 'page' | 'match'>) =>
    `${ROUTES.courses}${query({
      course: hit.courseId,
      doc: hit.documentId,
      page: String(hit.page),
      ...(hit.match ? { at: `${hit.match[0]}-${hit.match[1]}` } : {}),
    })}`,
};
