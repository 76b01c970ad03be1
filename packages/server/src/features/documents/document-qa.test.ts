import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AskDocumentResponse, SummaryResponse } from '@studybuddy/shared/documents-api';
import { MSG } from '@studybuddy/shared/messages';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { BIOLOGY_PAGES } from './test/biology.ts';
import { textPdf } from './test/fixtures.ts';
import { ask, detail, summarize, uploadOk, waitFor } from './test/helpers.ts';

describe('summaries and answers, offline', () => {
  let t: TestApp;
  let ada: TestUser;
  let documentId: string;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMITS: 'false' });
    ada = await createUser(t.app, { courses: ['BIO 101'] });
    const { document } = await uploadOk(t.app, ada, await textPdf(BIOLOGY_PAGES), 'Cell Biology Handout.pdf');
    documentId = document.id;
    await waitFor(t.app, ada, documentId, ['done']);
  });
  afterAll(() => t.close());

  it('summarises with key sentences of the document in reading order and key terms', async () => {
    const doc = await detail(t.app, ada, documentId);
    const text = BIOLOGY_PAGES.flat().join(' ');
    const sentences = doc.summary!.split(/(?<=\.)\s+/);
    expect(sentences.length).toBeGreaterThanOrEqual(3);
    const positions = sentences.map((s) => text.indexOf(s));
    expect(positions.every((p) => p >= 0)).toBe(true); // extractive: every sentence is the document's own
    expect([...positions].sort((a, b) => a - b)).toEqual(positions); // in reading order
    expect(doc.keyTerms.map((k) => k.toLowerCase())).toEqual(expect.arrayContaining(['mitochondria']));
    expect(doc.keyTerms.length).toBeGreaterThanOrEqual(3);
  });

  it('answers short answer first, then its sentence from the right page, and stores the exchange', async () => {
    const res = await ask(t.app, ada, documentId, 'When is the midterm exam?');
    expect(res.statusCode).toBe(200);
    const body = res.json<AskDocumentResponse>();
    expect(body.found).toBe(true);
    expect(body.engine).toBe('offline');
    const sentence = 'The midterm exam is on October 3 in Franz Hall and covers cell structure and mitochondria.';
    expect(body.shortAnswer).toEqual({ text: 'October 3', sentence, start: 23, end: 32 });
    expect(body.answer).toBe(`October 3\n${sentence} (page 3)`);
    expect(body.answer).toContain('The midterm exam is on October 3 in Franz Hall');
    expect(body.answer).toContain('(page 3)');
    expect(body.citations).toHaveLength(1);
    expect(body.citations[0]).toMatchObject({ unit: 'page', page: 3, label: 'page 3' });
    expect(body.citations[0]!.passage).toContain('The midterm exam is on October 3 in Franz Hall');

    const energy = (await ask(t.app, ada, documentId, 'What do mitochondria produce?')).json<AskDocumentResponse>();
    expect(energy.citations[0]?.page).toBe(2);
    expect(energy.answer).toContain('ATP');

    const doc = await detail(t.app, ada, documentId);
    expect(doc.questions.map((q) => q.question)).toEqual([
      'When is the midterm exam?',
      'What do mitochondria produce?',
    ]);
    expect(doc.questions[0]).toMatchObject({
      answer: body.answer,
      shortAnswer: body.shortAnswer,
      found: true,
      citations: body.citations,
    });
  });

  it('says so when the document does not contain the answer', async () => {
    const body = (await ask(t.app, ada, documentId, 'What is the capital of France?')).json<AskDocumentResponse>();
    expect(body).toMatchObject({ answer: MSG.courses.notInDocument, shortAnswer: null, found: false, citations: [] });
  });

  it('answers overview questions from the key sentences', async () => {
    const body = (await ask(t.app, ada, documentId, 'What is this document about?')).json<AskDocumentResponse>();
    expect(body.found).toBe(true);
    expect(body.citations[0]?.page).toBeGreaterThanOrEqual(1);
    expect(body.answer.length).toBeGreaterThan(40);
  });

  it('summarize-text summarises given text; summarize-document returns the stored summary', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/summarize-text',
      headers: { cookie: ada.cookie },
      payload: { text: BIOLOGY_PAGES.flat().join('\n\n'), document_name: 'x', document_type: 'document' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<SummaryResponse>().summary).toContain('.');
    const stored = await summarize(t.app, ada, {
      document_url: `/api/documents/${documentId}/file`,
      document_name: 'Cell Biology Handout.pdf',
    });
    expect(stored.statusCode).toBe(200);
    expect(stored.json<SummaryResponse>().summary).toBe((await detail(t.app, ada, documentId)).summary);
  });

  it('answers about content sent with the question (LMS pages), without storing anything', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/ask-document',
      headers: { cookie: ada.cookie },
      payload: {
        document_content: '<h1>Lab 2</h1><p>Submit the lab report on Canvas by <b>Friday at 5 pm</b>.</p>',
        document_name: 'Lab 2',
        document_type: 'html',
        source: 'canvas',
        question: 'When is the lab report due?',
      },
    });
    const body = res.json<AskDocumentResponse>();
    expect(body.found).toBe(true);
    expect(body.answer).toContain('Friday at 5 pm');
    expect(body.question).toBeNull();
  });
});

/** A local OpenAI-compatible endpoint: records requests, answers from a script, or fails on demand. */
function fakeLlm() {
  const requests: { messages: { role: string; content: string }[]; model: string }[] = [];
  let mode: 'ok' | 'fail' = 'ok';
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString()));
    req.on('end', () => {
      if (mode === 'fail' || req.url !== '/v1/chat/completions') {
        res.writeHead(500).end('{"error":"down"}');
        return;
      }
      const body = JSON.parse(raw) as (typeof requests)[number];
      requests.push(body);
      const user = body.messages.find((m) => m.role === 'user')!.content;
      const content = user.includes('Question:')
        ? user.includes('capital of France')
          ? MSG.courses.notInDocument
          : 'October 3\nThe midterm exam is on October 3 in Franz Hall and covers cell structure and mitochondria. [1]'
        : 'LLM SUMMARY: a course handout on cells, mitochondria and grading.';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    });
  });
  return {
    requests,
    setMode: (m: typeof mode) => (mode = m),
    start: () =>
      new Promise<string>((r) =>
        server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`)),
      ),
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('summaries and answers through an OpenAI-compatible endpoint', () => {
  let t: TestApp;
  let ada: TestUser;
  const llm = fakeLlm();
  beforeAll(async () => {
    const base = await llm.start();
    t = await createTestApp({ RATE_LIMITS: 'false', LLM_BASE_URL: base, LLM_API_KEY: 'k-123', LLM_MODEL: 'tiny' });
    ada = await createUser(t.app, { courses: ['BIO 101'] });
  });
  afterAll(async () => {
    await t.close();
    await llm.stop();
  });

  it('writes the summary and grounded answers with the model, short answer first, citing the passages it used', async () => {
    const { document } = await uploadOk(t.app, ada, await textPdf(BIOLOGY_PAGES), 'Handout.pdf');
    const { doc } = await waitFor(t.app, ada, document.id, ['done']);
    expect(doc).toMatchObject({
      summary: 'LLM SUMMARY: a course handout on cells, mitochondria and grading.',
      summaryEngine: 'llm',
    });
    expect(llm.requests[0]!.model).toBe('tiny');
    expect(llm.requests[0]!.messages[1]!.content).toContain('Mitochondria are the powerhouse of the cell.');

    const body = (await ask(t.app, ada, document.id, 'When is the midterm exam?')).json<AskDocumentResponse>();
    const sentence = 'The midterm exam is on October 3 in Franz Hall and covers cell structure and mitochondria.';
    expect(body).toMatchObject({
      engine: 'llm',
      found: true,
      answer: `October 3\n${sentence} (page 3)`,
      shortAnswer: { text: 'October 3', sentence, start: 23, end: 32 },
    });
    const prompt = llm.requests[llm.requests.length - 1]!.messages[1]!.content;
    expect(prompt).toContain('[1] (page 3) Exams and grading.');
    expect(body.citations).toHaveLength(1);
    expect(body.citations[0]).toMatchObject({ page: 3, label: 'page 3' });
    expect(body.citations[0]!.passage).toContain('The midterm exam is on October 3');

    const none = (await ask(t.app, ada, document.id, 'What is the capital of France?')).json<AskDocumentResponse>();
    expect(none).toMatchObject({
      engine: 'llm',
      found: false,
      answer: MSG.courses.notInDocument,
      shortAnswer: null,
      citations: [],
    });
  });

  it('falls back to the offline engine when the endpoint fails', async () => {
    llm.setMode('fail');
    const { document } = await uploadOk(t.app, ada, await textPdf(BIOLOGY_PAGES), 'Handout 2.pdf');
    const { doc } = await waitFor(t.app, ada, document.id, ['done']);
    expect(doc.summaryEngine).toBe('offline');
    expect(doc.summary).toContain('.');
    const body = (await ask(t.app, ada, document.id, 'When is the midterm exam?')).json<AskDocumentResponse>();
    expect(body).toMatchObject({ engine: 'offline', found: true });
    expect(body.citations[0]?.page).toBe(3);
    expect(body.answer).toContain('October 3');
  });
});
