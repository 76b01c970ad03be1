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
import { noContent } from '../../platform/openapi.ts';
import { routeOptions } from '../../platform/route-options.ts';
import { signedInOnly, studentId as me } from '../../platform/signed-in.ts';
import type { FlashcardsService } from './flashcards.service.ts';
import type { createQuizService } from './quiz.service.ts';

const route = routeOptions(['flashcards']);

/** Decks, cards, reviews, sharing and quizzes (issue 28 points 2–4); every route for the signed-in student. */
export function flashcardsRoutes(
  _ctx: AppContext,
  cards: FlashcardsService,
  quizzes: ReturnType<typeof createQuizService>,
) {
  return async (base: FastifyInstance) => {
    signedInOnly(base);
    deckRoutes(base, cards);
    studyRoutes(base, cards, quizzes);
  };
}

/** A student's decks and their cards: made, renamed, deleted, shared with groups and copied. */
function deckRoutes(base: FastifyInstance, cards: FlashcardsService) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/flashcards/decks',
    route("The student's decks and those shared with their groups", { response: { 200: deckListSchema } }),
    async (request) => cards.list(me(request)),
  );
  app.post(
    '/api/flashcards/decks',
    route('Starts an empty deck', { body: deckInputSchema, response: { 201: deckSummarySchema } }),
    async (request, reply) => reply.status(201).send(await cards.create(me(request), request.body.name)),
  );
  app.post(
    '/api/flashcards/decks/generate',
    route('Makes a deck from a document (or a range of its pages), offline', {
      body: generateInputSchema,
      response: { 201: generatedSchema },
    }),
    async (request, reply) => reply.status(201).send(await cards.generate(me(request), request.body)),
  );
  app.get(
    '/api/flashcards/decks/:id',
    route('A deck with its cards', { params: idParamSchema, response: { 200: deckDetailSchema } }),
    async (request) => cards.detail(me(request), request.params.id),
  );
  app.patch(
    '/api/flashcards/decks/:id',
    route('Renames a deck (its owner)', {
      params: idParamSchema,
      body: deckInputSchema,
      response: { 200: deckSummarySchema },
    }),
    async (request) => cards.rename(me(request), request.params.id, request.body.name),
  );
  app.delete(
    '/api/flashcards/decks/:id',
    route('Deletes a deck (its owner)', { params: idParamSchema, response: { 204: noContent } }),
    async (request, reply) => {
      await cards.remove(me(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/api/flashcards/decks/:id/cards',
    route('Adds a card to a deck (its owner)', {
      params: idParamSchema,
      body: cardInputSchema,
      response: { 201: deckDetailSchema },
    }),
    async (request, reply) => reply.status(201).send(await cards.addCard(me(request), request.params.id, request.body)),
  );
  app.patch(
    '/api/flashcards/cards/:id',
    route("Edits a card (its deck's owner); everyone the deck is shared with sees the change", {
      params: idParamSchema,
      body: cardInputSchema,
      response: { 200: cardSchema },
    }),
    async (request) => cards.editCard(me(request), request.params.id, request.body),
  );
  app.delete(
    '/api/flashcards/cards/:id',
    route("Deletes a card (its deck's owner)", { params: idParamSchema, response: { 204: noContent } }),
    async (request, reply) => {
      await cards.deleteCard(me(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/api/flashcards/decks/:id/shares',
    route('Shares a deck with a group the owner is in', {
      params: idParamSchema,
      body: shareInputSchema,
      response: { 200: deckSummarySchema },
    }),
    async (request) => cards.share(me(request), request.params.id, request.body.groupId),
  );
  app.delete(
    '/api/flashcards/decks/:id/shares/:groupId',
    route('Stops sharing a deck with a group', { params: shareParamSchema, response: { 200: deckSummarySchema } }),
    async (request) => cards.unshare(me(request), request.params.id, request.params.groupId),
  );
  app.post(
    '/api/flashcards/decks/:id/copy',
    route('Copies a deck the student can see into their own decks', {
      params: idParamSchema,
      body: z.object({}),
      response: { 201: deckSummarySchema },
    }),
    async (request, reply) => reply.status(201).send(await cards.copy(me(request), request.params.id)),
  );
}

/** Studying: due cards, reviews scheduled by FSRS, the daily reminder setting and practice quizzes. */
function studyRoutes(base: FastifyInstance, cards: FlashcardsService, quizzes: ReturnType<typeof createQuizService>) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/flashcards/decks/:id/study',
    route("The deck's cards due for the student (their own schedule)", {
      params: idParamSchema,
      response: { 200: studySchema },
    }),
    async (request) => cards.study(me(request), request.params.id),
  );
  app.post(
    '/api/flashcards/cards/:id/review',
    route('Rates a card Again, Hard, Good or Easy; FSRS schedules its next review for this student', {
      params: idParamSchema,
      body: reviewInputSchema,
      response: { 200: reviewedSchema },
    }),
    async (request) => cards.review(me(request), request.params.id, request.body.rating),
  );
  app.get(
    '/api/flashcards/due',
    route('Cards due now across the student’s decks', { response: { 200: dueSchema } }),
    async (request) => ({ due: await cards.due(me(request)) }),
  );
  app.get(
    '/api/flashcards/settings',
    route('The daily reminder setting', { response: { 200: settingsSchema } }),
    async (request) => cards.settings(me(request)),
  );
  app.put(
    '/api/flashcards/settings',
    route('Turns the daily reminder on or off', { body: settingsSchema, response: { 200: settingsSchema } }),
    async (request) => cards.saveSettings(me(request), request.body.dailyReminder),
  );
  app.post(
    '/api/flashcards/quizzes',
    route('A practice quiz of N questions from a document', { body: quizInputSchema, response: { 201: quizSchema } }),
    async (request, reply) => reply.status(201).send(await quizzes.create(me(request), request.body)),
  );
  app.post(
    '/api/flashcards/quizzes/:id/answers',
    route("Scores a quiz's answers, each wrong one with its page", {
      params: idParamSchema,
      body: quizAnswersSchema,
      response: { 200: quizResultSchema },
    }),
    async (request) => quizzes.answer(me(request), request.params.id, request.body.answers),
  );
}
