import { MSG } from '@studybuddy/shared/messages';
import type { ChatMessage } from './llm-client.ts';

export interface ContextPassage {
  label: string;
  text: string;
}

const MAX_SUMMARY_CHARS = 24_000;

/** Summary prompt: the document's text (or its key passages when long), nothing else. */
export function summaryPrompt(name: string, passages: ContextPassage[]): ChatMessage[] {
  let budget = MAX_SUMMARY_CHARS;
  const parts: string[] = [];
  for (const p of passages) {
    if (budget <= 0) break;
    const text = p.text.slice(0, budget);
    parts.push(`(${p.label}) ${text}`);
    budget -= text.length;
  }
  return [
    {
      role: 'system',
      content:
        'You summarise course documents for university students. Write a clear summary of 4 to 8 sentences ' +
        'in plain prose, using only the text provided. Do not invent facts.',
    },
    { role: 'user', content: `Document: ${name}\n\n${parts.join('\n\n')}` },
  ];
}

/** Grounded answer prompt: numbered passages with their pages, citations as [n], a fixed reply when absent. */
export function answerPrompt(name: string, question: string, passages: ContextPassage[]): ChatMessage[] {
  const numbered = passages.map((p, i) => `[${i + 1}] (${p.label}) ${p.text}`).join('\n\n');
  return [
    {
      role: 'system',
      content:
        'You answer questions about a course document using only the numbered passages given. ' +
        'Reply in two lines. First line: the short answer alone (a date, a name, a number or a few words), ' +
        'not a sentence. Second line: the sentence of the passages that gives it, copied exactly, followed by ' +
        'its passage number as [1], [2] and so on. If the passages do not contain the answer, reply ' +
        `exactly: ${MSG.courses.notInDocument}`,
    },
    { role: 'user', content: `Document: ${name}\n\nPassages:\n${numbered}\n\nQuestion: ${question}` },
  ];
}

/** Passage numbers cited as [n] in an answer, in order of first use. */
export function citedNumbers(answer: string, count: number): number[] {
  const seen: number[] = [];
  for (const m of answer.matchAll(/\[(\d+)\]/g)) {
    const n = Number(m[1]);
    if (n >= 1 && n <= count && !seen.includes(n)) seen.push(n);
  }
  return seen;
}

export function saysNotFound(answer: string): boolean {
  return answer.toLowerCase().includes(MSG.courses.notInDocument.toLowerCase().replace(/\.$/, ''));
}
