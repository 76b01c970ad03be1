import type { CitationDto, ShortAnswerDto, SummaryEngine } from '@studybuddy/shared/documents-api';
import { MSG } from '@studybuddy/shared/messages';
import type { Config } from '../../config.ts';
import type { JobLog } from '../../platform/jobs/job-queue.ts';
import type { AnswerResult, NlpSource, SummaryResult } from './extraction/extract-types.ts';
import { chatCompletion } from './llm/llm-client.ts';
import { readModelAnswer } from './llm/llm-answer.ts';
import { answerPrompt, saysNotFound, summaryPrompt } from './llm/llm-prompts.ts';
import type { NlpLane } from './nlp-lane.ts';
import type { PageText } from './text-types.ts';

export interface SummaryOutcome {
  summary: string;
  keyTerms: string[];
  engine: SummaryEngine;
}

export interface AnswerOutcome {
  answer: string;
  /** The words that answer, in their sentence; the sentence's page is the first citation. */
  shortAnswer: ShortAnswerDto | null;
  citations: CitationDto[];
  found: boolean;
  engine: SummaryEngine;
}

export interface DocumentAi {
  summarise(name: string, pages: PageText[], signal?: AbortSignal): Promise<SummaryOutcome>;
  /** Plain text a client sent, cut into sections in the worker. */
  summariseText(name: string, text: string): Promise<SummaryOutcome>;
  /** `key` names the text version, so follow-up questions reuse the worker's index. */
  answer(key: string, name: string, pages: PageText[], question: string): Promise<AnswerOutcome>;
  /** About text or HTML a client sent (read and cut into sections in the worker). */
  answerContent(key: string, name: string, content: string, question: string): Promise<AnswerOutcome>;
}

/** An answer as text, short answer first: the words, then the sentence they come from and where it is. */
export function answerText(short: string | null, sentences: string, where: string | undefined): string {
  const quoted = `${sentences}${where ? ` (${where})` : ''}`;
  return short ? `${short}\n${quoted}` : quoted;
}

/** The offline answer as text (or that the document does not hold it). */
export function offlineAnswerText(result: AnswerResult): string {
  if (!result.found || !result.sentences.length) return MSG.courses.notInDocument;
  return answerText(result.short?.text ?? null, result.sentences.join(' '), result.citations[0]?.label);
}

/**
 * Summaries and answers: offline by default (NLP worker thread: TextRank summary, BM25 retrieval); with
 * `LLM_BASE_URL` an OpenAI-compatible model writes them from the same passages, and any failure of the
 * endpoint falls back to the offline result.
 */
export function createDocumentAi(llm: Config['llm'], nlp: NlpLane, log: JobLog): DocumentAi {
  async function summarise(name: string, source: NlpSource, signal?: AbortSignal): Promise<SummaryOutcome> {
    // Text a client sent becomes pages in the worker; a language model needs them back.
    const keepPages = !!llm && !source.pages;
    const { pages = source.pages ?? [], ...offline } = await nlp.run<SummaryResult>(
      { op: 'summarise', ...source, keepPages },
      { signal },
    );
    if (!llm || !offline.summary) return { ...offline, engine: 'offline' };
    try {
      const summary = await chatCompletion(llm, summaryPrompt(name, pages), { signal, maxTokens: 500 });
      return { summary, keyTerms: offline.keyTerms, engine: 'llm' };
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'LLM summary failed; using the offline summary');
      return { ...offline, engine: 'offline' };
    }
  }

  async function answer(key: string, name: string, source: NlpSource, question: string): Promise<AnswerOutcome> {
    const offline = await nlp.run<AnswerResult>({ op: 'answer', key, question, ...source });
    const fallback: AnswerOutcome = {
      answer: offlineAnswerText(offline),
      shortAnswer: offline.found ? offline.short : null,
      citations: offline.found ? offline.citations : [],
      found: offline.found,
      engine: 'offline',
    };
    if (!llm || !offline.context.length) return fallback;
    try {
      const context = offline.context;
      const reply = await chatCompletion(llm, answerPrompt(name, question, context), { maxTokens: 500 });
      if (saysNotFound(reply)) {
        return { answer: MSG.courses.notInDocument, shortAnswer: null, citations: [], found: false, engine: 'llm' };
      }
      // Short answer first, as offline: the words, then the cited sentence and its page.
      const read = readModelAnswer(reply, context);
      const used = (read.cited.length ? read.cited : [1]).map((n) => context[n - 1]!);
      const answer = read.short ? answerText(read.short.text, read.short.sentence, used[0]!.label) : reply;
      return {
        answer,
        shortAnswer: read.short,
        citations: used.map((p) => ({
          unit: p.unit,
          page: p.page,
          label: p.label,
          passage: p.text,
          start: p.start,
          end: p.end,
        })),
        found: true,
        engine: 'llm',
      };
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'LLM answer failed; answering offline');
      return fallback;
    }
  }

  return {
    summarise: (name, pages, signal) => summarise(name, { pages }, signal),
    summariseText: (name, text) => summarise(name, { text }),
    answer: (key, name, pages, question) => answer(key, name, { pages }, question),
    answerContent: (key, name, content, question) => answer(key, name, { content }, question),
  };
}
