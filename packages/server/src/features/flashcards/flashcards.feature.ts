import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { CardLane } from './card-lane.ts';
import { flashcardsRoutes } from './flashcards.routes.ts';
import { createFlashcardsService } from './flashcards.service.ts';
import { createQuizService } from './quiz.service.ts';
import { startReminders } from './reminders.ts';

const REMINDER_EVERY_MS = 10 * 60_000;
/** Generations waiting for the worker at most; more are refused as busy rather than queued without end. */
const MAX_WAITING = 8;

/**
 * Flashcards from course documents, reviewed with FSRS, shared with groups, and practice quizzes (issue 28 points
 * 2–4). Cards are made on a worker thread of the feature's own, within the NLP budget (NLP_BUDGET_MS).
 */
export function flashcardsFeature(ctx: AppContext) {
  const lane = new CardLane({
    budgetMs: ctx.config.limits.nlpBudgetMs,
    maxWaiting: MAX_WAITING,
    memoryMb: ctx.config.limits.workerMemoryMb,
  });
  const cards = createFlashcardsService({ ctx, lane });
  const quizzes = createQuizService({ ctx, cards });
  const routes = flashcardsRoutes(ctx, cards, quizzes);
  return async (base: FastifyInstance) => {
    const stopReminders = startReminders(ctx, REMINDER_EVERY_MS);
    base.addHook('onClose', async () => {
      stopReminders();
      await lane.close();
    });
    await routes(base);
  };
}
