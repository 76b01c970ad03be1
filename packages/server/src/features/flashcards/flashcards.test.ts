import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  DeckDetail,
  DeckList,
  Generated,
  Quiz,
  QuizResult,
  Reviewed,
  StudyBatch,
} from '@studybuddy/shared/flashcards';
import { FLASHCARD_LIMITS } from '@studybuddy/shared/flashcards';
import { MSG } from '@studybuddy/shared/messages';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { befriend } from '../chat/chat.test-kit.ts';
import * as repo from './flashcards.repository.ts';
import { call, COURSE_TEXT, processedDocument } from './flashcards.test-kit.ts';
import { sendReminders } from './reminders.ts';

const T = MSG.flashcards;

describe('flashcards', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let cy: TestUser;
  let groupId: string;
  let otherGroupId: string;
  let documentId: string;
  beforeAll(async () => {
    t = await createTestApp();
    ada = await createUser(t.app, { name: 'Ada', courses: ['Biology'] });
    bob = await createUser(t.app, { name: 'Bob', courses: ['Biology'] });
    cy = await createUser(t.app, { name: 'Cy', courses: ['Biology'] });
    await befriend(t.app, ada, bob);
    await befriend(t.app, bob, cy);
    groupId = (await call(t.app, ada, 'POST', '/api/groups', { name: 'Biology', memberIds: [bob.id] })).json().id;
    otherGroupId = (await call(t.app, bob, 'POST', '/api/groups', { name: 'Other', memberIds: [cy.id] })).json().id;
    documentId = (await processedDocument(t.app, ada, COURSE_TEXT)).id;
  });
  afterAll(() => t.close());

  const generate = async (user: TestUser, body: object) => {
    const res = await call(t.app, user, 'POST', '/api/flashcards/decks/generate', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Generated>();
  };
  const detail = async (user: TestUser, id: string) =>
    (await call(t.app, user, 'GET', `/api/flashcards/decks/${id}`)).json<DeckDetail>();
  const due = async (user: TestUser) =>
    (await call(t.app, user, 'GET', '/api/flashcards/due')).json<{ due: number }>().due;

  it('makes key-term and cloze cards linked to their page, the same cards every time', async () => {
    const first = await generate(ada, { documentId });
    const second = await generate(ada, { documentId });
    expect(first.made).toBeGreaterThanOrEqual(8);
    expect(first.stoppedAtPage).toBeNull();
    const a = await detail(ada, first.deck.id);
    const b = await detail(ada, second.deck.id);
    const shape = (d: DeckDetail) => d.cards.map(({ kind, front, back, page }) => ({ kind, front, back, page }));
    expect(shape(a)).toEqual(shape(b));
    expect(a.cards.every((c) => c.page === 1 && c.pageLabel)).toBe(true);
    expect(shape(a)).toContainEqual({
      kind: 'term',
      front: 'Photosynthesis',
      back: expect.stringContaining('green plants'),
      page: 1,
    });
    expect(shape(a)).toContainEqual({
      kind: 'cloze',
      front: 'The Treaty of Versailles was signed on _____ in the Hall of Mirrors.',
      back: 'June 28, 1919',
      page: 1,
    });
    expect(a.cards.some((c) => c.kind === 'cloze' && c.back === 'Marie Curie')).toBe(true);
    await call(t.app, ada, 'DELETE', `/api/flashcards/decks/${second.deck.id}`);
  });

  it('lets the owner add, edit and delete cards, and refuses a deck past 10,000 cards', async () => {
    const deck = (await call(t.app, ada, 'POST', '/api/flashcards/decks', { name: 'Own' })).json<DeckDetail>();
    const added = await call(t.app, ada, 'POST', `/api/flashcards/decks/${deck.id}/cards`, { front: 'Q', back: 'A' });
    expect(added.statusCode).toBe(201);
    const card = added.json<DeckDetail>().cards[0]!;
    expect(card.kind).toBe('manual');
    const edited = await call(t.app, ada, 'PATCH', `/api/flashcards/cards/${card.id}`, { front: 'Q2', back: 'A2' });
    expect(edited.json()).toMatchObject({ front: 'Q2', back: 'A2' });
    const blank = await call(t.app, ada, 'POST', `/api/flashcards/decks/${deck.id}/cards`, { front: ' ', back: 'A' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error.message).toBe(T.frontRequired);
    expect((await call(t.app, ada, 'DELETE', `/api/flashcards/cards/${card.id}`)).statusCode).toBe(204);
    expect((await detail(ada, deck.id)).cardCount).toBe(0);

    const row = (await repo.lockDeck(t.app.ctx.db, deck.id))!;
    const filler = Array.from({ length: FLASHCARD_LIMITS.deckMaxCards - 1 }, (_, i) => ({
      id: `fill-${i}`,
      kind: 'manual',
      front: `F${i}`,
      back: 'B',
      page: null,
      pageLabel: null,
    }));
    await repo.appendCards(t.app.ctx.db, row, filler);
    const last = await call(t.app, ada, 'POST', `/api/flashcards/decks/${deck.id}/cards`, { front: 'last', back: 'B' });
    expect(last.statusCode).toBe(201);
    const over = await call(t.app, ada, 'POST', `/api/flashcards/decks/${deck.id}/cards`, { front: 'over', back: 'B' });
    expect(over.statusCode).toBe(422);
    expect(over.json().error.message).toBe(T.deckFull(10_000));
    expect((await detail(ada, deck.id)).cardCount).toBe(10_000);
    await call(t.app, ada, 'DELETE', `/api/flashcards/decks/${deck.id}`);
  }, 120_000);

  it('shares with a group: each member has their own schedule, sees the owner’s edits and can copy the deck', async () => {
    const { deck } = await generate(ada, { documentId });
    const denied = await call(t.app, ada, 'POST', `/api/flashcards/decks/${deck.id}/shares`, { groupId: otherGroupId });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.message).toBe(T.notYourGroup);
    const shared = await call(t.app, ada, 'POST', `/api/flashcards/decks/${deck.id}/shares`, { groupId });
    expect(shared.statusCode).toBe(200);
    expect(shared.json().sharedWith).toEqual([{ groupId, name: 'Biology' }]);

    const bobsList = (await call(t.app, bob, 'GET', '/api/flashcards/decks')).json<DeckList>();
    const seen = bobsList.decks.find((d) => d.id === deck.id)!;
    expect(seen).toMatchObject({ own: false, ownerName: 'Ada', due: deck.cardCount });
    const adaBefore = await due(ada);
    const bobBefore = await due(bob);

    const study = (await call(t.app, bob, 'GET', `/api/flashcards/decks/${deck.id}/study`)).json<StudyBatch>();
    const card = study.cards[0]!;
    const reviewed = await call(t.app, bob, 'POST', `/api/flashcards/cards/${card.id}/review`, { rating: 'good' });
    expect(reviewed.statusCode).toBe(200);
    expect(reviewed.json<Reviewed>()).toMatchObject({ state: 'learning', reps: 1, dueTotal: bobBefore - 1 });
    expect(await due(bob)).toBe(bobBefore - 1);
    expect(await due(ada)).toBe(adaBefore);

    const notOwner = await call(t.app, bob, 'PATCH', `/api/flashcards/cards/${card.id}`, { front: 'x', back: 'y' });
    expect(notOwner.statusCode).toBe(403);
    expect(notOwner.json().error.message).toBe(T.ownerOnly);
    const bobShares = await call(t.app, bob, 'POST', `/api/flashcards/decks/${deck.id}/shares`, { groupId });
    expect(bobShares.json().error.message).toBe(T.ownerOnly);
    await call(t.app, ada, 'PATCH', `/api/flashcards/cards/${card.id}`, { front: 'Edited front', back: 'Edited back' });
    expect((await detail(bob, deck.id)).cards.find((c) => c.id === card.id)).toMatchObject({ front: 'Edited front' });

    const copy = await call(t.app, bob, 'POST', `/api/flashcards/decks/${deck.id}/copy`);
    expect(copy.statusCode).toBe(201);
    expect(copy.json()).toMatchObject({ own: true, cardCount: deck.cardCount, due: deck.cardCount });

    // Cy is in no group the deck is shared with: the deck and its cards are as missing as if they did not exist.
    expect((await call(t.app, cy, 'GET', `/api/flashcards/decks/${deck.id}`)).json().error.message).toBe(
      T.deckNotFound,
    );
    const foreign = await call(t.app, cy, 'POST', `/api/flashcards/cards/${card.id}/review`, { rating: 'easy' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.message).toBe(T.cardNotFound);
    const badRating = await call(t.app, bob, 'POST', `/api/flashcards/cards/${card.id}/review`, { rating: 'perfect' });
    expect(badRating.statusCode).toBe(400);
    expect(badRating.json().error.message).toBe(T.ratingRequired);

    // Unshared: Bob loses the deck, keeps his copy.
    await call(t.app, ada, 'DELETE', `/api/flashcards/decks/${deck.id}/shares/${groupId}`);
    expect((await call(t.app, bob, 'GET', `/api/flashcards/decks/${deck.id}`)).statusCode).toBe(404);
  });

  it('sends the daily reminder once a day to students with cards due, unless turned off', async () => {
    const now = new Date(Date.now() + 60_000);
    const first = await sendReminders(t.app.ctx, now);
    expect(first.map((r) => r.userId).sort()).toEqual([ada.id, bob.id].sort());
    expect(await sendReminders(t.app.ctx, now)).toEqual([]);
    await call(t.app, bob, 'PUT', '/api/flashcards/settings', { dailyReminder: false });
    const tomorrow = new Date(now.getTime() + 24 * 60 * 60 * 1000);
    expect((await sendReminders(t.app.ctx, tomorrow)).map((r) => r.userId)).toEqual([ada.id]);
    expect((await call(t.app, bob, 'GET', '/api/flashcards/settings')).json()).toEqual({ dailyReminder: false });
  });

  it('quizzes: multiple choice from the same kind of answers, lenient short answers, wrong ones with their page', async () => {
    const res = await call(t.app, ada, 'POST', '/api/flashcards/quizzes', { documentId, count: 5 });
    expect(res.statusCode, res.body).toBe(201);
    const quiz = res.json<Quiz>();
    expect(quiz.questions).toHaveLength(5);
    expect(JSON.stringify(quiz)).not.toContain('"answer"');
    const choice = quiz.questions.find((q) => q.kind === 'choice')!;
    expect(choice.choices).toHaveLength(4);
    expect(quiz.questions.some((q) => q.kind === 'short')).toBe(true);
    const stored = (await repo.findQuiz(t.app.ctx.db, ada.id, quiz.id))!.questions;
    // The same document's answers of the same kind: dates with dates, names with names.
    const kindOf = (s: string) => (/\d/.test(s) ? 'number-or-date' : 'words');
    for (const q of stored.filter((s) => s.kind === 'choice')) {
      expect(q.choices).toContain(q.answer);
      expect(new Set(q.choices.map(kindOf)).size).toBe(1);
    }
    const answers = stored.map((q, i) => (i === 1 ? 'something else' : ` ${q.answer.toUpperCase()}!`));
    const scored = await call(t.app, ada, 'POST', `/api/flashcards/quizzes/${quiz.id}/answers`, { answers });
    const result = scored.json<QuizResult>();
    expect(result).toMatchObject({ score: 4, total: 5 });
    expect(result.results[1]).toMatchObject({
      correct: false,
      given: 'something else',
      expected: stored[1]!.answer,
      page: 1,
    });
    const again = await call(t.app, ada, 'POST', `/api/flashcards/quizzes/${quiz.id}/answers`, { answers });
    expect(again.statusCode).toBe(409);
    const others = await call(t.app, bob, 'POST', `/api/flashcards/quizzes/${quiz.id}/answers`, { answers });
    expect(others.json().error.message).toBe(T.quizNotFound);
  });

  it('refuses a document that failed extraction, another student’s document, and says when no card could be made', async () => {
    const broken = await processedDocument(t.app, ada, Buffer.from('not a pdf at all'), 'broken.pdf');
    expect(broken.status).toBe('failed');
    for (const url of ['/api/flashcards/quizzes', '/api/flashcards/decks/generate']) {
      const res = await call(t.app, ada, 'POST', url, { documentId: broken.id, count: 5 });
      expect(res.statusCode).toBe(422);
      expect(res.json().error.message).toMatch(/^This document could not be read, so nothing can be made from it: /);
    }
    const notMine = await call(t.app, bob, 'POST', '/api/flashcards/decks/generate', { documentId });
    expect(notMine.statusCode).toBe(404);
    expect(notMine.json().error.message).toBe(T.documentNotFound);

    const before = (await call(t.app, ada, 'GET', '/api/flashcards/decks')).json<DeckList>().decks.length;
    for (const text of ['#$%^&*(){}[]<>/|'.repeat(2_000), Array.from({ length: 400 }, (_, i) => `${i}`).join('\n')]) {
      const soup = await processedDocument(t.app, ada, text, 'soup.txt');
      const res = await call(t.app, ada, 'POST', '/api/flashcards/decks/generate', { documentId: soup.id });
      expect(res.statusCode).toBe(422);
      expect(res.json().error.message).toBe(T.noCardsMade);
    }
    expect((await call(t.app, ada, 'GET', '/api/flashcards/decks')).json<DeckList>().decks).toHaveLength(before);
    const range = await call(t.app, ada, 'POST', '/api/flashcards/decks/generate', {
      documentId,
      fromPage: 3,
      toPage: 2,
    });
    expect(range.json().error.message).toBe(T.pageRange);
  });
});
