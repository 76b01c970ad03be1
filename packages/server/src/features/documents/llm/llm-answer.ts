import type { ShortAnswerDto } from '@studybuddy/shared/documents-api';
import type { ContextPassage } from './llm-prompts.ts';
import { citedNumbers } from './llm-prompts.ts';

/** A model's reply read in the short-answer-first shape: the words, the sentence they come from, its passage. */
export interface ModelAnswer {
  short: ShortAnswerDto | null;
  /** The words alone (first line), even when they could not be found in a passage's sentence. */
  words: string;
  /** 1-based numbers of the passages the reply cites, in order of first use. */
  cited: number[];
}

const LABEL = /^\s*(?:short answer|answer|sentence|quote)\s*:\s*/i;
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The sentences of a passage, roughly (the model's quote is looked up among them). */
function sentencesOf(text: string): string[] {
  return squash(text)
    .split(/(?<=[.!?])\s+(?=[A-Z0-9"'(])/)
    .filter(Boolean);
}

/**
 * Reads "ANSWER\nSENTENCE [n]": the first line is the short answer, the second the sentence it comes from. The
 * sentence is taken from the cited passage itself (the one quoted, else the one holding the answer's words),
 * so what is highlighted is always the document's own text. A reply in another shape has no short answer.
 */
export function readModelAnswer(reply: string, passages: ContextPassage[]): ModelAnswer {
  const cited = citedNumbers(reply, passages.length);
  const lines = reply
    .split(/\n+/)
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines.length < 2) return { short: null, words: '', cited };
  const words = squash(lines[0]!.replace(LABEL, '').replace(/\[\d+\]/g, '')).replace(/^["“]|["”]$/g, '');
  const quoted = squash(lines[1]!.replace(LABEL, '').replace(/\[\d+\]/g, '')).replace(/^["“]|["”]$/g, '');
  const order = [...cited, ...passages.map((_, i) => i + 1).filter((n) => !cited.includes(n))];
  const lower = words.toLowerCase();
  for (const n of order) {
    const sentences = sentencesOf(passages[n - 1]!.text);
    const sentence =
      sentences.find((s) => quoted && squash(s).includes(quoted.slice(0, 60))) ??
      sentences.find((s) => lower && s.toLowerCase().includes(lower));
    if (!sentence) continue;
    const at = lower ? sentence.toLowerCase().indexOf(lower) : -1;
    if (at < 0) continue;
    return {
      short: { text: sentence.slice(at, at + words.length), sentence, start: at, end: at + words.length },
      words,
      cited: cited.includes(n) ? cited : [n, ...cited],
    };
  }
  return { short: null, words, cited };
}
