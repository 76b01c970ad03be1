import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  cardInputSchema,
  cardSchema,
  deckDetailSchema,
  deckInputSchema,
  deckListSchema,
  deckSummarySchema,
  dueSchema,
  generatedSchema,
  generateInputSchema,
  idParamSchema,
  quizAnswersSchema,
  quizInputSchema,
  quizResultSchema,
  quizSchema,
  reviewedSchema,
  reviewInputSchema,
  settingsSchema,
  shareInputSchema,
  shareParamSchema,
  studySchema,
} from '@studybuddy/shared/flashcards';
import type { AppContext } from '../../platform/context.ts';
import { errorResponses, noContent } from '../../platform/openapi.ts';
import { requireUser, signedIn } from '../../platform/session.ts';
import type { FlashcardsService } from './flashcards.service.ts';
import type { createQuizService } from './quiz.service.ts';

/** Decks, cards, reviews, sharing and quizzes (issue 28 points 2–4); every route for the signed-in student. */
export function flashcardsRoutes(
  _ctx: AppContext,
  cards: FlashcardsService,
  quizzes: ReturnType<typeof createQuizService>,
) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    const tags = ['flashcards'];
    const preValidation = signedIn;
    const me = (request: Parameters<typeof requireUser>[0]) => requireUser(request).id;

    app.get(
      '/api/flashcards/decks',
      {
        preValidation,
        schema: {
          summary: "The student's decks and those shared with their groups",
          tags,
          response: { 200: deckListSchema, ...errorResponses },
        },
      },
      async (request) => cards.list(me(request)),
    );
    app.post(
      '/api/flashcards/decks',
      {
        preValidation,
        schema: {
          summary: 'Starts an empty deck',
          tags,
          body: deckInputSchema,
          response: { 201: deckSummarySchema, ...errorResponses },
        },
      },
      async (request, reply) => reply.status(201).send(await cards.create(me(request), request.body.name)),
    );
    app.post(
      '/api/flashcards/decks/generate',
      {
        preValidation,
        schema: {
          summary: 'Makes a deck from a document (or a range of its pages), offline',
          tags,
          body: generateInputSchema,
          response: { 201: generatedSchema, ...errorResponses },
        },
      },
      async (request, reply) => reply.status(201).send(await cards.generate(me(request), request.body)),
    );
    app.get(
      '/api/flashcards/decks/:id',
      {
        preValidation,
        schema: {
          summary: 'A deck with its cards',
          tags,
          params: idParamSchema,
          response: { 200: deckDetailSchema, ...errorResponses },
        },
      },
      async (request) => cards.detail(me(request), request.params.id),
    );
    app.patch(
      '/api/flashcards/decks/:id',
      {
        preValidation,
        schema: {
          summary: 'Renames a deck (its owner)',
          tags,
          params: idParamSchema,
          body: deckInputSchema,
          response: { 200: deckSummarySchema, ...errorResponses },
        },
      },
      async (request) => cards.rename(me(request), request.params.id, request.body.name),
    );
    app.delete(
      '/api/flashcards/decks/:id',
      {
        preValidation,
        schema: {
          summary: 'Deletes a deck (its owner)',
          tags,
          params: idParamSchema,
          response: { 204: noContent, ...errorResponses },
        },
      },
      async (request, reply) => {
        await cards.remove(me(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
    app.post(
      '/api/flashcards/decks/:id/cards',
      {
        preValidation,
        schema: {
          summary: 'Adds a card to a deck (its owner)',
          tags,
          params: idParamSchema,
          body: cardInputSchema,
          response: { 201: deckDetailSchema, ...errorResponses },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await cards.addCard(me(request), request.params.id, request.body)),
    );
    app.patch(
      '/api/flashcards/cards/:id',
      {
        preValidation,
        schema: {
          summary: "Edits a card (its deck's owner); everyone the deck is shared with sees the change",
          tags,
          params: idParamSchema,
          body: cardInputSchema,
          response: { 200: cardSchema, ...errorResponses },
        },
      },
      async (request) => cards.editCard(me(request), request.params.id, request.body),
    );
    app.delete(
      '/api/flashcards/cards/:id',
      {
        preValidation,
        schema: {
          summary: "Deletes a card (its deck's owner)",
          tags,
          params: idParamSchema,
          response: { 204: noContent, ...errorResponses },
        },
      },
      async (request, reply) => {
        await cards.deleteCard(me(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
    app.post(
      '/api/flashcards/decks/:id/shares',
      {
        preValidation,
        schema: {
          summary: 'Shares a deck with a group the owner is in',
          tags,
          params: idParamSchema,
          body: shareInputSchema,
          response: { 200: deckSummarySchema, ...errorResponses },
        },
      },
      async (request) => cards.share(me(request), request.params.id, request.body.groupId),
    );
    app.delete(
      '/api/flashcards/decks/:id/shares/:groupId',
      {
        preValidation,
        schema: {
          summary: 'Stops sharing a deck with a group',
          tags,
          params: shareParamSchema,
          response: { 200: deckSummarySchema, ...errorResponses },
        },
      },
      async (request) => cards.unshare(me(request), request.params.id, request.params.groupId),
    );
    app.post(
      '/api/flashcards/decks/:id/copy',
      {
        preValidation,
        schema: {
          summary: 'Copies a deck the student can see into their own decks',
          tags,
          params: idParamSchema,
          body: z.object({}),
          response: { 201: deckSummarySchema, ...errorResponses },
        },
      },
      async (request, reply) => reply.status(201).send(await cards.copy(me(request), request.params.id)),
    );
    app.get(
      '/api/flashcards/decks/:id/study',
      {
        preValidation,
        schema: {
          summary: "The deck's cards due for the student (their own schedule)",
          tags,
          params: idParamSchema,
          response: { 200: studySchema, ...errorResponses },
        },
      },
      async (request) => cards.study(me(request), request.params.id),
    );
    app.post(
      '/api/flashcards/cards/:id/review',
      {
        preValidation,
        schema: {
          summary: 'Rates a card Again, Hard, Good or Easy; FSRS schedules its next review for this student',
          tags,
          params: idParamSchema,
          body: reviewInputSchema,
          response: { 200: reviewedSchema, ...errorResponses },
        },
      },
      async (request) => cards.review(me(request), request.params.id, request.body.rating),
    );
    app.get(
      '/api/flashcards/due',
      {
        preValidation,
        schema: {
          summary: 'Cards due now across the student’s decks',
          tags,
          response: { 200: dueSchema, ...errorResponses },
        },
      },
      async (request) => ({ due: await cards.due(me(request)) }),
    );
    app.get(
      '/api/flashcards/settings',
      {
        preValidation,
        schema: { summary: 'The daily reminder setting', tags, response: { 200: settingsSchema, ...errorResponses } },
      },
      async (request) => cards.settings(me(request)),
    );
    app.put(
      '/api/flashcards/settings',
      {
        preValidation,
        schema: {
          summary: 'Turns the daily reminder on or off',
          tags,
          body: settingsSchema,
          response: { 200: settingsSchema, ...errorResponses },
        },
      },
      async (request) => cards.saveSettings(me(request), request.body.dailyReminder),
    );
    app.post(
      '/api/flashcards/quizzes',
      {
        preValidation,
        schema: {
          summary: 'A practice quiz of N questions from a document',
          tags,
          body: quizInputSchema,
          response: { 201: quizSchema, ...errorResponses },
        },
      },
      async (request, reply) => reply.status(201).send(await quizzes.create(me(request), request.body)),
    );
    app.post(
      '/api/flashcards/quizzes/:id/answers',
      {
        preValidation,
        schema: {
          summary: "Scores a quiz's answers, each wrong one with its page",
          tags,
          params: idParamSchema,
          body: quizAnswersSchema,
          response: { 200: quizResultSchema, ...errorResponses },
        },
      },
      async (request) => quizzes.answer(me(request), request.params.id, request.body.answers),
    );
  };
}
