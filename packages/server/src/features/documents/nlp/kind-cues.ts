import type { AnswerKind } from './question-kind.ts';

const MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december';
const DATE = new RegExp(
  `\\b(?:1\\d{3}|20\\d{2})s?\\b|\\b(?:${MONTHS})\\b|\\bcentur(?:y|ies)\\b|\\b\\d{3,4} ?(?:bc|ad|bce|ce)\\b`,
  'i',
);
const NUMBER =
  /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|hundreds|thousand|thousands|million|millions|billion|dozen|half|percent)\b/i;
const REASON = /\b(?:because|due to|since|so that|in order to|as a result|owing to|thanks to|led to|caused)\b/i;
const MANNER = /\b(?:by|through|using|via|with)\b/i;
/** A capitalised word after a blank: not the sentence's first word (texts here are trimmed). */
const CAPITALISED = /\s([A-Z][\p{L}'’-]*)/gu;

/** Lower-case words of a text (letters and digits), for "is this word in the question?". */
export function wordsOf(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\d]+/gu) ?? []);
}

/**
 * Whether a sentence holds something of the kind the question asks for, cheaply (no tagging): a year or a
 * month for "when", a number for "how many", a capitalised word the question does not hold for "who",
 * "where" and names, a "because" for "why". 0 or 1; 0.5 when the kind says nothing (a plain "what").
 */
export function kindCue(sentence: string, kind: AnswerKind, questionWords: Set<string>): number {
  switch (kind) {
    case 'date':
      return DATE.test(sentence) ? 1 : 0;
    case 'number':
      return NUMBER.test(sentence) ? 1 : 0;
    case 'person':
    case 'place':
    case 'name':
      for (const m of sentence.matchAll(CAPITALISED)) {
        if (!questionWords.has(m[1]!.toLowerCase().replace(/['’]s$/, ''))) return 1;
      }
      return 0;
    case 'reason':
      return REASON.test(sentence) ? 1 : 0;
    case 'manner':
      return MANNER.test(sentence) ? 1 : 0.5;
    default:
      return 0.5;
  }
}

/** A capitalised word after a blank (not the question's first word), or a number. */
const NAMES = /\s([A-Z][\p{L}'’-]*)|(\d[\d,.]*)/gu;

/** The question's names and numbers, lower-case, without a trailing "'s" or stop. */
export function questionNames(question: string): string[] {
  return [...question.trim().matchAll(NAMES)].map((m) => (m[1] ?? m[2]!).toLowerCase().replace(/['’]s$|[,.]$/, ''));
}
