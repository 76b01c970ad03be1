/** What kind of short answer a question asks for, read from its question words. */
export type AnswerKind = 'date' | 'number' | 'person' | 'place' | 'name' | 'thing' | 'reason' | 'manner';

export interface QuestionKind {
  kind: AnswerKind;
  /** The noun a "what/which X" question names (its lower-case form), e.g. "river" in "Which river…". */
  focus: string | null;
  /** "Who wrote…", "What group opposed…": the question word is the subject, so the answer tends to come
   * before the question's other words in the sentence. */
  subject?: boolean;
}

const AUXILIARY =
  /^(?:is|was|are|were|be|been|does|did|do|has|had|have|can|could|would|will|should|may|might|must|'s)$/;

/** Whether the question word is followed (after its noun, if any) by a main verb: "Who made…", "What group opposed…". */
export function asksForSubject(question: string): boolean {
  const words = question
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s'-]/gu, ' ')
    .trim()
    .split(/\s+/);
  const at = words.findIndex((w) => /^(?:who|what|which)$/.test(w));
  if (at < 0) return false;
  let i = at + 1;
  // The focus noun phrase: up to three words that are neither auxiliaries nor obviously verbs.
  while (i < words.length && i - at <= 3 && !AUXILIARY.test(words[i]!) && !/(?:ed|es)$/.test(words[i]!)) i++;
  const verb = words[i] ?? '';
  return !AUXILIARY.test(verb) && /(?:ed|es|s)$/.test(verb) && (i === at + 1 || i - at <= 3);
}

const DATE_NOUNS = /^(?:year|years|decade|century|centuries|date|day|month|time|era|period|season|age)$/;
const PLACE_NOUNS =
  /^(?:country|countries|city|cities|town|state|states|region|place|location|continent|island|river|area|province|county|nation|territory|village|capital|mountain|sea|ocean|lake|street|building|site|port|coast)$/;
const PERSON_NOUNS =
  /^(?:person|people|man|men|woman|women|king|queen|president|leader|author|writer|scientist|emperor|ruler|duke|general|player|artist|composer|architect|founder|inventor|minister|pope|bishop|explorer|philosopher|mathematician|engineer|coach|singer|actor|son|daughter|father|mother|wife|husband|brother|sister|monarch|governor|chancellor|prince|princess|saint|poet|economist|physicist|chemist|director|owner|chairman|ceo|officer|commander)$/;
const NUMBER_NOUNS = /^(?:percentage|percent|number|amount|proportion|fraction|population|size|rate|sum|total|score)$/;

const WH = /\b(what|which|who|whom|whose|when|where|why|how)\b/;

/**
 * The expected answer: "when/what year" a date, "how many/much" a number, "who" a person, "where/which country"
 * a place, "why" a reason, "how" a manner, any other "what/which X" a thing (with X as its focus).
 */
export function questionKind(question: string): QuestionKind {
  return { ...kindOf(question), subject: asksForSubject(question) };
}

function kindOf(question: string): QuestionKind {
  const q = question.toLowerCase().replace(/[^\p{L}\p{N}\s'-]/gu, ' ');
  const m = WH.exec(q);
  if (!m) return { kind: 'thing', focus: null };
  const wh = m[1]!;
  const after = q
    .slice(m.index + wh.length)
    .trim()
    .split(/\s+/);
  const next = after[0] ?? '';
  // "what kind of X", "what type of X": X is the focus.
  const focusWord = /^(?:kind|type|sort|form|name)$/.test(next) && after[1] === 'of' ? (after[2] ?? '') : next;

  if (wh === 'when') return { kind: 'date', focus: null };
  if (wh === 'where') return { kind: 'place', focus: null };
  if (wh === 'why') return { kind: 'reason', focus: null };
  if (wh === 'who' || wh === 'whom' || wh === 'whose') return { kind: 'person', focus: null };
  if (wh === 'how') {
    if (/^(?:many|much|long|far|old|large|big|tall|high|wide|deep|often|fast|heavy|few|great)$/.test(next)) {
      return { kind: next === 'long' && /\bago\b/.test(q) ? 'date' : 'number', focus: after[1] ?? null };
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
