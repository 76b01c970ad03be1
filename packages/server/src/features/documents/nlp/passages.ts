import type { TextUnit } from '@studybuddy/shared/documents-api';
import type { PageText } from '../text-types.ts';
import { analyse, type Sentence } from './text-analysis.ts';

/** A stretch of about 150 words of one page: what retrieval scores and what answers quote. */
export interface Passage {
  id: number;
  page: number;
  unit: TextUnit;
  label: string;
  text: string;
  /** Offsets in the page's text. */
  start: number;
  end: number;
  sentences: Sentence[];
  terms: string[];
}

const TARGET_WORDS = 150;
const MIN_TAIL_WORDS = 50;

/** Cuts every page into passages of about 150 words at sentence boundaries; passages never span pages. */
export function buildPassages(pages: PageText[]): { passages: Passage[]; sentences: Sentence[] } {
  const passages: Passage[] = [];
  const all: Sentence[] = [];
  for (const page of pages) {
    const sentences = analyse(page.text);
    all.push(...sentences);
    let group: Sentence[] = [];
    let words = 0;
    const emit = () => {
      if (!group.length) return;
      const start = group[0]!.start;
      const end = group[group.length - 1]!.end;
      passages.push({
        id: passages.length,
        page: page.page,
        unit: page.unit,
        label: page.label,
        text: page.text.slice(start, end),
        start,
        end,
        sentences: group,
        terms: group.flatMap((s) => s.terms),
      });
      group = [];
      words = 0;
    };
    for (const s of sentences) {
      group.push(s);
      words += s.words;
      if (words >= TARGET_WORDS) emit();
    }
    // A short tail joins the passage before it on the same page.
    const last = passages[passages.length - 1];
    if (group.length && words < MIN_TAIL_WORDS && last && last.page === page.page) {
      last.sentences.push(...group);
      last.terms.push(...group.flatMap((s) => s.terms));
      last.end = group[group.length - 1]!.end;
      last.text = page.text.slice(last.start, last.end);
      group = [];
    }
    emit();
  }
  return { passages, sentences: all };
}
