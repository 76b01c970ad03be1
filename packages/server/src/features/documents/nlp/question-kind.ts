import { sentenceTokens } from './sentence-tokens.ts';

/** What kind of short answer a question asks for, read from its question words. */
export type AnswerKind = 'date' | 'number' | 'person' | 'place' | 'name' | 'thing' | 'reason' | 'manner';

export interface QuestionKind {
  kind: AnswerKind;
  /** The noun a "what/which X" question names (its lower-case form), e.g. "river" in "Which river…". */
  focus: string | null;
  /** "Who wrote…", "What group opposed…": the question word is the subject, so the answer tends to come
   * before the question's other words in the sentence. */
  subject?: boolean;
  /** "Which tribes…", "What two nations…": the answer names several things (a list). */
  several?: boolean;
}

const DATE_NOUNS = /^(?:year|years|decade|century|centuries|date|day|month|time|era|period|season|age)$/;
const PLACE_NOUNS =
  /^(?:country|countries|city|cities|town|state|states|region|place|location|continent|island|river|area|province|county|nation|territory|village|capital|mountain|sea|ocean|lake|street|building|site|port|coast)$/;
export const PERSON_NOUNS =
  /^(?:person|people|man|men|woman|women|king|queen|president|leader|author|writer|scientist|emperor|ruler|duke|general|player|artist|composer|architect|founder|inventor|minister|pope|bishop|explorer|philosopher|mathematician|engineer|coach|priest|monk|abbot|nephew|uncle|singer|actor|son|daughter|father|mother|wife|husband|brother|sister|monarch|governor|chancellor|prince|princess|saint|poet|economist|physicist|chemist|director|owner|chairman|ceo|officer|commander)$/;
const NUMBER_NOUNS = /^(?:percentage|percent|number|amount|proportion|fraction|population|size|rate|sum|total|score)$/;

const WH = /^(?:what|which|who|whom|whose|when|where|why|how)$/;

/**
 * The expected answer: "when/what year" a date, "how many/much" a number, "who" a person, "where/which country"
 * a place, "why" a reason, "how" a manner, any other "what/which X" a thing (with X as its focus).
 */
export function questionKind(question: string): QuestionKind {
  const tokens = sentenceTokens(question);
  const at = tokens.findIndex((t) => WH.test(t.lower));
  if (at < 0) return { kind: 'thing', focus: null, subject: false, several: false };
  // The words after the question word up to its verb: "Swiss city" in "What Swiss city was…".
  let i = at + 1;
  if (/^(?:kind|type|sort|form|name)$/.test(tokens[i]?.lower ?? '') && tokens[i + 1]?.lower === 'of') i += 2;
  const from = i;
  while (i < tokens.length && NOUN_PHRASE.has(tokens[i]!.pos) && i - from < 4) i++;
  const nouns = tokens.slice(from, i).filter((t) => t.pos === 'NOUN' || t.pos === 'PROPN');
  const focus = (nouns[nouns.length - 1] ?? tokens[from])?.lower ?? '';
  const wh = tokens[at]!.lower;
  const verb = tokens[i];
  const subject =
    wh !== 'how' &&
    (verb?.pos === 'VERB' || (KIND_TUNING.copulaSubject && /^(?:is|was|are|were)$/.test(verb?.lower ?? '')));
  const plural = nouns.some((t) => t.pos === 'NOUN' && t.stem !== t.lower && /[^su]s$/.test(t.lower));
  const several = plural || /\b(?:two|three|four|five|both|several)\b/i.test(question);
  return { ...kindOf(wh, tokens[at + 1]?.lower ?? '', focus, question.toLowerCase()), subject, several };
}

export const KIND_TUNING = { copulaSubject: false };
const NOUN_PHRASE = new Set(['NOUN', 'PROPN', 'ADJ', 'NUM']);

function kindOf(wh: string, next: string, focusWord: string, q: string): QuestionKind {
  if (wh === 'when') return { kind: 'date', focus: null };
  if ((wh === 'what' || wh === 'which') && /\b(?:name|named|called|known as|nickname)\b/.test(q)) {
    return { kind: 'name', focus: focusWord };
  }
  if (wh === 'where') return { kind: 'place', focus: null };
  if (wh === 'why') return { kind: 'reason', focus: null };
  if (wh === 'who' || wh === 'whom' || wh === 'whose') return { kind: 'person', focus: null };
  if (wh === 'how') {
    if (/^(?:many|much|long|far|old|large|big|tall|high|wide|deep|often|fast|heavy|few|great)$/.test(next)) {
      return { kind: next === 'long' && /\bago\b/.test(q) ? 'date' : 'number', focus: focusWord || null };
    }
    return { kind: 'manner', focus: null };
  }
  // what / which
  if (DATE_NOUNS.test(focusWord)) return { kind: 'date', focus: focusWord };
  if (NUMBER_NOUNS.test(focusWord)) return { kind: 'number', focus: focusWord };
  if (PLACE_NOUNS.test(focusWord)) return { kind: 'place', focus: focusWord };
  if (PERSON_NOUNS.test(focusWord)) return { kind: 'person', focus: focusWord };
  if (/^(?:is|was|are|were|does|did|do|has|had|can|could|would|will|should|may|might|'s)$/.test(focusWord)) {
    return { kind: 'thing', focus: null };
  }
  if (
    /^(?:company|organization|organisation|team|university|college|group|party|church|band|newspaper|school|club|agency|institution|dynasty|empire|tribe|family|language|religion|army)$/.test(
      focusWord,
    )
  ) {
    return { kind: 'name', focus: focusWord };
  }
  return { kind: 'thing', focus: focusWord && focusWord !== 'the' ? focusWord : null };
}
