import { createHash } from 'node:crypto';
import { answerF1, normaliseAnswer } from '@studybuddy/shared/answer-match';
import type { QuizItem } from './flashcards.repository.ts';
import type { MadeCard } from './card-maker.ts';

const CHOICES = 4;
/** A typed answer this close to the expected one (token F1 after SQuAD normalisation) counts as right. */
const LENIENT_F1 = 0.75;

const rank = (seed: string, s: string) => createHash('sha256').update(`${seed}\u0000${s}`).digest('hex');

/** Other answers of the same kind from the same document, as many as a multiple-choice question needs. */
function distractors(card: MadeCard, pool: MadeCard[], seed: string): string[] {
  const own = normaliseAnswer(card.answer);
  const seen = new Set([own]);
  const out: string[] = [];
  const candidates = pool
    .filter((c) => c.answerKind === card.answerKind)
    .sort((a, b) => rank(seed + card.answer, a.answer).localeCompare(rank(seed + card.answer, b.answer)));
  for (const c of candidates) {
    const n = normaliseAnswer(c.answer);
    if (!n || seen.has(n)) continue;
    seen.add(n);
    out.push(c.answer);
    if (out.length === CHOICES - 1) break;
  }
  return out;
}

/**
 * `count` questions from the document's cards, spread over the document: every other one multiple choice (when the
 * document has three other answers of the same kind), the rest typed. Null when there are fewer cards than asked.
 */
export function buildQuiz(cards: MadeCard[], count: number, seed: string): QuizItem[] | null {
  if (cards.length < count) return null;
  const withChoices = cards.map((c) => distractors(c, cards, seed));
  const taken = new Set<number>();
  /** The card nearest `at` not yet asked about, one that has enough distractors when `choice` (if any has). */
  const pick = (at: number, choice: boolean): number => {
    for (let d = 0; d < cards.length; d++) {
      for (const i of [at + d, at - d]) {
        if (i >= 0 && i < cards.length && !taken.has(i) && (!choice || withChoices[i]!.length === CHOICES - 1)) {
          return i;
        }
      }
    }
    return choice ? pick(at, false) : -1;
  };
  return Array.from({ length: count }, (_, q) => {
    const i = pick(Math.floor((q * cards.length) / count), q % 2 === 0);
    taken.add(i);
    const card = cards[i]!;
    const others = q % 2 === 0 ? withChoices[i]! : [];
    const { prompt } = card;
    if (others.length === CHOICES - 1) {
      const choices = [card.answer, ...others].sort((a, b) => rank(seed, a).localeCompare(rank(seed, b)));
      return { kind: 'choice', prompt, choices, answer: card.answer, page: card.page };
    }
    return { kind: 'short', prompt, choices: [], answer: card.answer, page: card.page };
  });
}

/** A choice must be the answer; a typed answer is right when it matches after SQuAD normalisation, or nearly. */
export function isRight(item: QuizItem, given: string): boolean {
  const a = normaliseAnswer(given);
  if (!a) return false;
  if (a === normaliseAnswer(item.answer)) return true;
  return item.kind === 'short' && answerF1(given, item.answer) >= LENIENT_F1;
}
