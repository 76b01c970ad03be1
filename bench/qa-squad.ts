// SQuAD 2.0 as the QA scripts read it (qa.bench.ts, qa-fit.ts, qa-errors.ts): articles split by their position in
// the file (even for tuning, odd held out), each article one document with one paragraph a page.
import { readFileSync } from 'node:fs';
import type { PageText } from '../packages/server/src/features/documents/text-types.ts';

export interface SquadArticle {
  title: string;
  paragraphs: {
    context: string;
    qas: { id: string; question: string; is_impossible?: boolean; answers: { text: string }[] }[];
  }[];
}

export type Split = 'tune' | 'held-out' | 'all';

export function squadArticles(file: string, split: Split): SquadArticle[] {
  const { data } = JSON.parse(readFileSync(file, 'utf8')) as { data: SquadArticle[] };
  return data.filter((_, i) => split === 'all' || (split === 'tune' ? i % 2 === 0 : i % 2 === 1));
}

export function articlePages(article: SquadArticle): PageText[] {
  return article.paragraphs.map((p, i) => ({ page: i + 1, unit: 'page', label: `page ${i + 1}`, text: p.context }));
}
