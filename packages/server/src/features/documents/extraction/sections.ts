import { trimLineEnds } from '@studybuddy/shared/text-scan';
import type { PageText } from '../text-types.ts';

export interface SectionPage extends PageText {
  method: 'text';
}

const SECTION_WORDS = 400;

/** Plain text in sections of about 400 words at paragraph breaks (DOCX, TXT, RTF and CSV have no pages). */
export function sections(text: string): SectionPage[] {
  // Every pass is linear: no regex here may rescan a run of blanks (see text-scan.ts).
  const clean = trimLineEnds(text.replace(/\r\n?/g, '\n'))
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (!clean) return [];
  // Trimmed text ends in a non-blank, so every line break is followed by one: each line is a paragraph.
  const paragraphs = clean.split('\n');
  const out: SectionPage[] = [];
  let current: string[] = [];
  let words = 0;
  const emit = () => {
    if (!current.length) return;
    const n = out.length + 1;
    out.push({ page: n, unit: 'section', label: `section ${n}`, text: current.join('\n').trim(), method: 'text' });
    current = [];
    words = 0;
  };
  for (const p of paragraphs) {
    const w = p.split(/\s+/).filter(Boolean).length;
    if (words && words + w > SECTION_WORDS) emit();
    current.push(p);
    words += w;
  }
  emit();
  return out;
}
