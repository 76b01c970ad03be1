// Issue 28's bad input for flashcards: one 500-page document whose pages are prose, symbol soup or lines without
// sentences; making its flashcards and a quiz must answer within the NLP budget (whatever cards it can make, or a
// clear "none") and leave the server answering everyone else meanwhile (the bench's probes).
import { textPdf } from '../../packages/server/src/features/documents/test/fixtures.ts';
import type { AbuseCase } from './cases.ts';
import { SETTLED, documentStatus, uploadDocument } from './fixture.ts';
import { call } from './http.ts';
import { sleep } from './server.ts';

const PROSE = [
  'Photosynthesis is the process by which green plants turn light into sugar.',
  'The Treaty of Versailles was signed on June 28, 1919 in the Hall of Mirrors.',
  'About 71% of the surface of the Earth is covered by water.',
  'Marie Curie won the Nobel Prize in Physics together with Pierre Curie.',
];

/** 500 pages: prose, then symbol soup, then a column of numbers, in turn. */
function mixedPages(): string[][] {
  return Array.from({ length: 500 }, (_, i) => {
    if (i % 3 === 0) return PROSE.map((line) => `${line} (${i + 1})`);
    if (i % 3 === 1) return Array.from({ length: 20 }, () => '#$%^&*(){}[]<>/|~'.repeat(4));
    return Array.from({ length: 30 }, (_, j) => String(i * 30 + j));
  });
}

let pdf: Promise<Buffer> | undefined;
const payload = () => (pdf ??= textPdf(mixedPages()));

export const flashcardsCase: AbuseCase = {
  name: 'flashcards and a quiz from 500 pages of prose, symbol soup and numbers',
  capMs: 240_000,
  prepare: payload,
  async run(ctx) {
    const up = await uploadDocument(
      ctx.base,
      ctx.fx.attacker,
      await payload(),
      'mixed.pdf',
      'application/pdf',
      ctx.signal,
    );
    if (!up.id) return { status: `upload ${up.status}`, answerMs: up.ms, expectOk: false };
    let doc = await documentStatus(ctx.base, ctx.fx.attacker, up.id, ctx.signal);
    while (!SETTLED.has(doc.status) && !ctx.signal.aborted) {
      ctx.progress.status = `document ${doc.status}`;
      await sleep(250);
      doc = await documentStatus(ctx.base, ctx.fx.attacker, up.id, ctx.signal);
    }
    const budget = ctx.limits.nlpBudgetMs;
    const cards = await call(ctx.base, ctx.fx.attacker, 'POST', '/api/flashcards/decks/generate', {
      body: { documentId: up.id },
      signal: ctx.signal,
    });
    ctx.progress.status = `cards ${cards.status}`;
    const quiz = await call(ctx.base, ctx.fx.attacker, 'POST', '/api/flashcards/quizzes', {
      body: { documentId: up.id, count: 5 },
      signal: ctx.signal,
    });
    const made = (cards.body as { made?: number; stoppedAtPage?: number | null } | null) ?? {};
    const answered = (s: number) => s === 201 || s === 422;
    return {
      status: `document ${doc.status}; cards ${cards.status}; quiz ${quiz.status}`,
      answerMs: Math.max(cards.ms, quiz.ms),
      // Within the budget plus the worker's start and the reads around it; a 422 ("none could be made") is fine.
      expectOk: answered(cards.status) && answered(quiz.status) && Math.max(cards.ms, quiz.ms) < budget + 10_000,
      note: `${made.made ?? 0} cards${made.stoppedAtPage ? `, stopped at page ${made.stoppedAtPage}` : ''}; budget ${budget} ms`,
    };
  },
};
