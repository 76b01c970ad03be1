import { randomUUID } from 'node:crypto';
import { FLASHCARD_LIMITS, type Quiz, type QuizInput, type QuizResult } from '@studybuddy/shared/flashcards';
import { MSG } from '@studybuddy/shared/messages';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { createQuota, DAY_MS } from '../../platform/quota.ts';
import type { FlashcardsService } from './flashcards.service.ts';
import * as repo from './flashcards.repository.ts';
import { buildQuiz, isRight } from './quiz-builder.ts';

const T = MSG.flashcards;

/** Practice quizzes: questions made from a document on the worker, kept with their answers until scored. */
export function createQuizService(deps: { ctx: AppContext; cards: FlashcardsService }) {
  const { ctx, cards } = deps;
  const quota = createQuota(ctx.db);
  return {
    async create(userId: string, input: QuizInput): Promise<Quiz> {
      const source = await cards.readableSource(userId, input.documentId);
      await quota.consume(`flashcards-quiz:${userId}`, {
        what: T.quotaQuizzes,
        limit: FLASHCARD_LIMITS.quizzesPerDay,
        windowMs: DAY_MS,
        when: MSG.quota.tryTomorrow,
      });
      const made = await cards.make(source, FLASHCARD_LIMITS.generatedMax);
      const id = randomUUID();
      const questions = buildQuiz(made.cards, input.count, id);
      if (!questions) throw new AppError(422, 'quiz_too_few', T.quizTooFew);
      await repo.insertQuiz(ctx.db, { id, userId, documentId: source.id, documentName: source.name, questions });
      return {
        id,
        documentId: source.id,
        documentName: source.name,
        questions: questions.map(({ answer: _a, ...q }) => q),
      };
    },

    /** Scores the answers (once), each wrong one with its page. */
    async answer(userId: string, quizId: string, answers: string[]): Promise<QuizResult> {
      const quiz = await repo.findQuiz(ctx.db, userId, quizId);
      if (!quiz) throw notFound(T.quizNotFound);
      if (answers.length !== quiz.questions.length) throw badRequest(T.answersCount(quiz.questions.length), 'answers');
      const results = quiz.questions.map((q, i) => ({
        correct: isRight(q, answers[i] ?? ''),
        given: answers[i] ?? '',
        expected: q.answer,
        page: q.page,
        prompt: q.prompt,
      }));
      const score = results.filter((r) => r.correct).length;
      if (!(await repo.scoreQuiz(ctx.db, quiz.id, score))) throw new AppError(409, 'quiz_answered', T.quizAnswered);
      return { score, total: results.length, results };
    },
  };
}
