import { sections } from './extraction/sections.ts';
import type { AnswerResult, NlpRequest, NlpSource, SummaryResult } from './extraction/extract-types.ts';
import { htmlToText, looksLikeHtml } from './html-text.ts';
import type { PageText } from './text-types.ts';
import { answerOffline, buildIndex, type RetrievalIndex } from './nlp/answer.ts';
import { buildPassages } from './nlp/passages.ts';
import { keySentences, summariseOffline } from './nlp/summarise.ts';
import type { Sentence } from './nlp/text-analysis.ts';

/** The pages a request reads: stored pages as they are; text sent by a client cut into sections (HTML read first). */
export function pagesOf(source: NlpSource): PageText[] {
  if (source.pages) return source.pages;
  if (source.content !== undefined) {
    return sections(looksLikeHtml(source.content) ? htmlToText(source.content) : source.content);
  }
  return sections(source.text ?? '');
}

/** The last text's passages and index, so follow-up questions skip the analysis. */
let cached: { key: string; index: RetrievalIndex; overview: Sentence[] } | null = null;

function indexFor(key: string, pages: () => PageText[]) {
  if (cached?.key !== key) {
    const { passages, sentences } = buildPassages(pages());
    cached = { key, index: buildIndex(passages), overview: keySentences(sentences) };
  }
  return cached;
}

/** Summaries and answers from the text alone (run in the document worker: CPU-heavy on long texts). */
export function runNlp(req: NlpRequest): SummaryResult | AnswerResult {
  if (req.op === 'summarise') {
    const pages = pagesOf(req);
    const summary = summariseOffline(buildPassages(pages).sentences);
    return req.keepPages ? { ...summary, pages } : summary;
  }
  const { index, overview } = indexFor(req.key, () => pagesOf(req));
  const result = answerOffline(index, req.question, overview);
  return { ...result, context: result.context.map(({ sentences: _s, terms: _t, id: _i, ...rest }) => rest) };
}
