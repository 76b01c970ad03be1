// The hostile cases of issue 13, each run by one signed-in attacker against a fresh copy of the fixture.
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import WebSocket from 'ws';
import { loadLimits, type Limits } from '../../packages/server/src/config.ts';
import { SESSION_COOKIE } from '../../packages/server/src/features/auth/session.ts';
import { textImage, textPdf } from '../../packages/server/src/features/documents/test/fixtures.ts';
import { LIMIT_RULES } from '../../packages/server/src/features/auth/rate-limit.ts';
import { SEARCH_LIMITS } from '../../packages/shared/src/search.ts';
import { conversationTopic } from '../../packages/shared/src/realtime.ts';
import {
  docxBomb,
  manyPagesPdf,
  pathologicalTexts as texts,
  pdfWithHugeImage,
  pngBomb,
  scannedPagesPdf,
} from '../../packages/server/src/test/hostile-payloads.ts';
import {
  ATTACKER_IP,
  PASSWORD,
  SETTLED,
  VICTIM_COURSE,
  VICTIM_UPLOAD,
  documentStatus,
  tusMetadata,
  uploadDocument,
  waitForDocument,
  type Fixture,
} from './fixture.ts';
import { call, logIn, pool, tally, type Actor } from './http.ts';
import { flashcardsCase } from './flashcards-case.ts';
import { sleep } from './server.ts';

export interface CaseContext {
  base: string;
  fx: Fixture;
  /** Aborted when the case reaches its time cap. */
  signal: AbortSignal;
  limits: Limits;
  /** The latest known answer, shown when the case hits its cap. */
  progress: { status: string };
}

export interface CaseOutcome {
  status: string;
  answerMs: number;
  /** The case's own expectation (a refusal, a quota, a leak that must not happen). */
  expectOk: boolean;
  note?: string;
}

export interface AbuseCase {
  name: string;
  /** Target for the answer time (the pathological texts: 1 s). */
  answerTargetMs?: number;
  capMs?: number;
  /** Process one small scanned document first, so the OCR worker's start-up is not counted as growth. */
  warmDocuments?: boolean;
  /** Summarise one ordinary text first, so the NLP worker's start-up is not counted in the answer or growth. */
  warmNlp?: boolean;
  /** Builds the payload before the server starts (not timed). */
  prepare?: () => Promise<unknown>;
  run(ctx: CaseContext): Promise<CaseOutcome>;
}

const memo = <T>(make: () => Promise<T>) => {
  let p: Promise<T> | undefined;
  return () => (p ??= make());
};

const scanPage = memo(() => textImage(['Lecture notes', 'The midterm covers cell structure.', 'Bring a calculator.']));

/** As many pages as the configured page cap allows (every one of them OCRed). */
const PAGES_AT_CAP = Math.min(2000, loadLimits(process.env).documentMaxPages);

const payload = {
  png8: memo(() => pngBomb(30_000, 30_000, 8)),
  png1: memo(() => pngBomb(30_000, 30_000, 1)),
  docx: memo(() => docxBomb()),
  hugeImagePdf: memo(() => pdfWithHugeImage()),
  tenThousandPages: memo(() => manyPagesPdf(10_000)),
  scanned2000: memo(async () => scannedPagesPdf(2000, await scanPage())),
  scannedAtCap: memo(async () => scannedPagesPdf(PAGES_AT_CAP, await scanPage())),
  scanned1: memo(async () => scannedPagesPdf(1, await scanPage())),
  onePage: memo(() => textPdf([['Syllabus: the final exam is on December 9.']])),
  big: memo(async () => randomBytes(24 * 1024 * 1024)),
};

const ok = (s: number) => s >= 200 && s < 300;
const refused = (s: number) => s >= 400 && s < 500;
const serverError = (s: number) => s === 0 || s >= 500;

/** One request from the attacker; fine when answered without a 5xx (accepted or refused by its schema). */
function oneRequest(
  name: string,
  method: string,
  url: (ctx: CaseContext) => string,
  body: () => unknown,
  answerTargetMs = 1000,
): AbuseCase {
  return {
    name,
    answerTargetMs,
    warmNlp: true,
    async run(ctx) {
      const res = await call(ctx.base, ctx.fx.attacker, method, url(ctx), { body: body(), signal: ctx.signal });
      return { status: String(res.status || 'no answer'), answerMs: res.ms, expectOk: !serverError(res.status) };
    },
  };
}

/** Several requests one after another; the answer time is the slowest one. */
function requests(name: string, list: ((ctx: CaseContext) => Promise<{ status: number; ms: number }>)[]): AbuseCase {
  return {
    name,
    answerTargetMs: 1000,
    async run(ctx) {
      const answers: { status: number; ms: number }[] = [];
      for (const r of list) {
        answers.push(await r(ctx));
        ctx.progress.status = tally(answers.map((a) => a.status));
      }
      return {
        status: answers.map((a) => a.status || 'none').join(', '),
        answerMs: Math.max(...answers.map((a) => a.ms)),
        expectOk: !answers.some((a) => serverError(a.status)),
      };
    },
  };
}

/** Uploads a course document as the attacker and follows it until it is done or failed. */
function documentCase(
  name: string,
  file: () => Promise<Buffer>,
  filename: string,
  type: string,
  extra: Partial<AbuseCase> = {},
): AbuseCase {
  return {
    name,
    warmDocuments: true,
    prepare: file,
    ...extra,
    async run(ctx) {
      const started = performance.now();
      const up = await uploadDocument(ctx.base, ctx.fx.attacker, await file(), filename, type, ctx.signal);
      if (!up.id) return { status: String(up.status || 'no answer'), answerMs: up.ms, expectOk: refused(up.status) };
      ctx.progress.status = `${up.status} → queued`;
      let last = await documentStatus(ctx.base, ctx.fx.attacker, up.id, ctx.signal);
      while (!SETTLED.has(last.status) && !ctx.signal.aborted) {
        const progress = last.progress ? ` ${last.progress.page}/${last.progress.pages}` : '';
        ctx.progress.status = `${up.status} → ${last.status}${progress}`;
        await sleep(250);
        last = await documentStatus(ctx.base, ctx.fx.attacker, up.id, ctx.signal);
      }
      return {
        status: `${up.status} → ${last.status}`,
        answerMs: performance.now() - started,
        expectOk: SETTLED.has(last.status),
      };
    },
  };
}

const chatUrl = (ctx: CaseContext) => `/api/chats/${ctx.fx.attackerChatId}/messages`;
const textMessage = (content: string) => () => ({ id: crypto.randomUUID(), type: 'text', content });

/** A whole profile as PUT /api/profile takes it, from the attacker's current one with some fields replaced. */
async function putProfile(ctx: CaseContext, fields: Record<string, unknown>) {
  const own = await call(ctx.base, ctx.fx.attacker, 'GET', '/api/profile', { signal: ctx.signal });
  const p = own.body as Record<string, unknown>;
  const body = {
    name: p.name,
    major: p.major,
    year: p.year,
    bio: p.bio,
    courses: p.courses,
    profilePicture: p.profilePicture,
    additionalImages: p.additionalImages ?? [],
    ...fields,
  };
  return call(ctx.base, ctx.fx.attacker, 'PUT', '/api/profile', { body, signal: ctx.signal });
}

/** How long student B's one-page document waits behind student A's work. */
function fairShare(name: string, attackerWork: (ctx: CaseContext) => Promise<string[]>): AbuseCase {
  return {
    name,
    warmDocuments: true,
    answerTargetMs: 15_000,
    capMs: 45_000,
    prepare: async () =>
      Promise.all([payload.scanned2000(), payload.scannedAtCap(), payload.scanned1(), payload.onePage()]),
    async run(ctx) {
      const ids = await attackerWork(ctx);
      // Let A's work reach the lane first.
      for (let i = 0; i < 20; i++) {
        const s = await documentStatus(ctx.base, ctx.fx.attacker, ids[0]!, ctx.signal);
        if (s.status !== 'queued') break;
        await sleep(250);
      }
      const started = performance.now();
      const up = await uploadDocument(
        ctx.base,
        ctx.fx.peer,
        await payload.onePage(),
        'syllabus.pdf',
        'application/pdf',
      );
      if (!up.id) return { status: `B's upload ${up.status}`, answerMs: 0, expectOk: false };
      ctx.progress.status = "B's document waiting";
      const last = await waitForDocument(ctx.base, ctx.fx.peer, up.id, ctx.signal, 250);
      const a = await documentStatus(ctx.base, ctx.fx.attacker, ids[0]!);
      const aProgress = a.progress ? ` ${a.progress.page}/${a.progress.pages}` : '';
      return {
        status: `B ${last.status}`,
        answerMs: performance.now() - started,
        expectOk: last.status === 'done',
        note: `A's first document then: ${a.status}${aProgress}`,
      };
    },
  };
}

async function openSockets(ctx: CaseContext, who: Actor, count: number) {
  const url = `${ctx.base.replace('http', 'ws')}/api/ws`;
  const sockets = Array.from(
    { length: count },
    () => new WebSocket(url, { headers: { cookie: who.cookie, 'x-forwarded-for': who.ip } }),
  );
  const states = await Promise.all(
    sockets.map(
      (ws) =>
        new Promise<'open' | 'refused'>((resolve) => {
          const timer = setTimeout(() => resolve('refused'), 10_000);
          ws.once('open', () => (clearTimeout(timer), resolve('open')));
          ws.once('error', () => (clearTimeout(timer), resolve('refused')));
          ws.once('unexpected-response', (_req, res) => (clearTimeout(timer), res.resume(), resolve('refused')));
        }),
    ),
  );
  // A server may accept and then close the ones over the limit.
  await sleep(1000);
  const stillOpen = sockets.filter((ws) => ws.readyState === WebSocket.OPEN).length;
  for (const ws of sockets) ws.terminate();
  return { opened: states.filter((s) => s === 'open').length, stillOpen };
}

/** What the socket answers when `who` asks to listen to `topic`: 'subscribed', 'refused …', or why there was none. */
async function subscribeAnswer(ctx: CaseContext, who: Actor, topic: string): Promise<string> {
  const ws = new WebSocket(`${ctx.base.replace('http', 'ws')}/api/ws`, {
    headers: { cookie: who.cookie, 'x-forwarded-for': who.ip },
  });
  try {
    return await new Promise<string>((resolve) => {
      const timer = setTimeout(() => resolve('no answer'), 10_000);
      const done = (answer: string) => (clearTimeout(timer), resolve(answer));
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data)) as { type: string; status?: number; topic?: string };
        if (frame.type === 'hello') ws.send(JSON.stringify({ op: 'subscribe', topic }));
        else if (frame.type === 'subscribed' && frame.topic === topic) done('subscribed');
        else if (frame.type === 'error') done(`refused ${frame.status ?? ''}`.trim());
      });
      ws.once('error', () => done('socket error'));
      ws.once('unexpected-response', (_req, res) => (res.resume(), done(`socket ${res.statusCode}`)));
    });
  } finally {
    ws.terminate();
  }
}

/**
 * One GET on a connection of its own through node:http (fetch refuses an Upgrade header): the status, or 0 when
 * the server never answered.
 */
function rawGet(base: string, url: string, headers: Record<string, string>, timeoutMs: number): Promise<number> {
  return new Promise((resolve) => {
    const req = httpRequest(`${base}${url}`, { headers, agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(0));
    req.end();
  });
}

/** A made-up client address, as an attacker writes into its own X-Forwarded-For. */
const randomIp = () => [...randomBytes(4)].join('.');

export const CASES: AbuseCase[] = [
  // What the machine's load alone gives: the same probes while nobody does anything for 5 s.
  {
    name: 'baseline: idle server for 5 s',
    async run(ctx) {
      await sleep(5000);
      ctx.progress.status = '-';
      return { status: '-', answerMs: 0, expectOk: true };
    },
  },
  // Pathological texts (answer < 1 s, health stays fast).
  oneRequest(
    'summarize-text "a" + 400,000 spaces + "b"',
    'POST',
    () => '/api/summarize-text',
    () => ({
      text: texts.spaces(400_000),
    }),
  ),
  oneRequest(
    'summarize-text "a" + 200,000 spaces + "b"',
    'POST',
    () => '/api/summarize-text',
    () => ({
      text: texts.spaces(200_000),
    }),
  ),
  oneRequest(
    'summarize-text 400,000 "<"',
    'POST',
    () => '/api/summarize-text',
    () => ({
      text: texts.openBrackets(400_000),
    }),
  ),
  oneRequest(
    'summarize-text 160,000 unclosed "<a "',
    'POST',
    () => '/api/summarize-text',
    () => ({
      text: texts.unclosedTags(160_000),
    }),
  ),
  oneRequest(
    'summarize-text 499,998 newlines then spaces',
    'POST',
    () => '/api/summarize-text',
    () => ({
      text: texts.newlinesThenSpaces(499_998),
    }),
  ),
  oneRequest(
    'summarize-text 1 MB of blank lines',
    'POST',
    () => '/api/summarize-text',
    () => ({
      text: texts.blankLines(1_000_000),
    }),
  ),
  oneRequest(
    'ask-document, page content of 160,000 "<a "',
    'POST',
    () => '/api/ask-document',
    () => ({
      question: 'When is the exam?',
      document_content: texts.unclosedTags(160_000),
    }),
  ),
  oneRequest(
    'ask-document, page content "a" + 400,000 spaces',
    'POST',
    () => '/api/ask-document',
    () => ({
      question: 'When   is   the   exam?',
      document_content: texts.spaces(400_000),
    }),
  ),
  requests('profile bio/name/major pathological', [
    (ctx) => putProfile(ctx, { bio: texts.spaces(1998) }),
    (ctx) => putProfile(ctx, { bio: texts.unclosedTags(666), name: texts.spaces(98), major: texts.openBrackets(100) }),
  ]),
  requests('chat message 4,000 chars ("<a ", spaces, "<")', [
    (ctx) => call(ctx.base, ctx.fx.attacker, 'POST', chatUrl(ctx), { body: textMessage(texts.unclosedTags(1333))() }),
    (ctx) => call(ctx.base, ctx.fx.attacker, 'POST', chatUrl(ctx), { body: textMessage(texts.spaces(3998))() }),
    (ctx) => call(ctx.base, ctx.fx.attacker, 'POST', chatUrl(ctx), { body: textMessage(texts.openBrackets(4000))() }),
  ]),
  requests('feedback 5,000 chars (spaces, "<a ")', [
    (ctx) => call(ctx.base, null, 'POST', '/api/feedback', { body: { feedback: texts.spaces(4998), rating: 3 } }),
    (ctx) => call(ctx.base, null, 'POST', '/api/feedback', { body: { feedback: texts.unclosedTags(1666), rating: 3 } }),
  ]),
  documentCase(
    '.txt document "a" + 2,000,000 spaces + "b"',
    async () => Buffer.from(texts.spaces(2_000_000)),
    'notes.txt',
    'text/plain',
  ),

  // Decoder bombs.
  documentCase('PNG 30000×30000 (0.9 MB) as a course document', payload.png8, 'scan.png', 'image/png'),
  {
    name: 'PNG 30000×30000 (110 KB) as a profile picture',
    prepare: payload.png1,
    async run(ctx) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(await payload.png1())], { type: 'image/png' }), 'me.png');
      const res = await call(ctx.base, ctx.fx.attacker, 'POST', '/api/uploads/profile-image', {
        raw: form,
        signal: ctx.signal,
      });
      return { status: String(res.status || 'no answer'), answerMs: res.ms, expectOk: refused(res.status) };
    },
  },
  {
    name: 'PNG 30000×30000 (0.9 MB) as a chat image',
    prepare: payload.png8,
    async run(ctx) {
      const res = await call(
        ctx.base,
        ctx.fx.attacker,
        'POST',
        `/api/chats/${ctx.fx.attackerChatId}/attachments?kind=image`,
        { raw: new Uint8Array(await payload.png8()), headers: { 'content-type': 'image/png' }, signal: ctx.signal },
      );
      return { status: String(res.status || 'no answer'), answerMs: res.ms, expectOk: refused(res.status) };
    },
  },
  documentCase(
    'DOCX zip bomb (1 MB → 1 GB document.xml)',
    payload.docx,
    'notes.docx',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  ),
  documentCase('PDF with a 30000×30000 image', payload.hugeImagePdf, 'scan.pdf', 'application/pdf'),
  documentCase('PDF of 10,000 pages', payload.tenThousandPages, 'book.pdf', 'application/pdf'),

  // Fair share of the job lane.
  fairShare("A's 2,000 scanned pages, then B's 1-page PDF", async (ctx) => {
    const up = await uploadDocument(
      ctx.base,
      ctx.fx.attacker,
      await payload.scanned2000(),
      'book.pdf',
      'application/pdf',
    );
    return up.id ? [up.id] : [];
  }),
  fairShare(`A's ${PAGES_AT_CAP} scanned pages (the page cap), then B's 1-page PDF`, async (ctx) => {
    const up = await uploadDocument(
      ctx.base,
      ctx.fx.attacker,
      await payload.scannedAtCap(),
      'book.pdf',
      'application/pdf',
    );
    return up.id ? [up.id] : [];
  }),
  fairShare("A's 20 scanned documents, then B's 1-page PDF", async (ctx) => {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const up = await uploadDocument(
        ctx.base,
        ctx.fx.attacker,
        await payload.scanned1(),
        `scan-${i}.pdf`,
        'application/pdf',
      );
      if (up.id) ids.push(up.id);
    }
    return ids;
  }),

  // Log-in and reset guessing.
  {
    name: '50 wrong password-reset confirmations at once',
    async run(ctx) {
      const started = performance.now();
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          call(ctx.base, ctx.fx.attacker, 'POST', '/api/auth/password-reset/confirm', {
            body: { oobCode: randomBytes(24).toString('base64url'), password: 'new-password-1' },
            signal: ctx.signal,
          }),
        ),
      );
      const statuses = answers.map((a) => a.status);
      return { status: tally(statuses), answerMs: performance.now() - started, expectOk: !statuses.some(ok) };
    },
  },
  {
    name: "1,000 wrong log-ins on one account (owner's device?)",
    capMs: 45_000,
    async run(ctx) {
      const started = performance.now();
      const deadline = started + 25_000;
      const statuses = await pool(1000, 10, async (i) => {
        if (performance.now() > deadline || ctx.signal.aborted) return -1;
        const res = await call(ctx.base, null, 'POST', '/api/auth/login', {
          body: { email: ctx.fx.victim.email, password: `guess-${i}` },
          ip: `198.51.100.${1 + (i % 50)}`,
          signal: ctx.signal,
        });
        return res.status;
      });
      const sent = statuses.filter((s) => s !== -1);
      const answerMs = performance.now() - started;
      ctx.progress.status = tally(sent);
      const session = await call(ctx.base, ctx.fx.victim, 'GET', '/api/auth/session');
      const signedIn = !!(session.body as { user?: unknown } | null)?.user;
      // The owner's browser: its device cookie (when the server sets one) but not the open session, which a
      // log-in would replace.
      const device = ctx.fx.victimDeviceCookie
        .split('; ')
        .filter((c) => !c.startsWith(`${SESSION_COOKIE}=`))
        .join('; ');
      const owner = await logIn(ctx.base, ctx.fx.victim.email, PASSWORD, ctx.fx.victim.ip, device || undefined);
      return {
        status: `${tally(sent)}; owner ${owner.status}`,
        answerMs,
        expectOk: owner.status === 200 && signedIn,
        note: `${sent.filter((s) => s === 401).length} passwords checked of ${sent.length} sent; owner's session ${signedIn ? 'kept' : 'lost'}`,
      };
    },
  },

  {
    // Behind the one proxy (TRUST_PROXY=1) the client's own X-Forwarded-For entries come before the address the
    // proxy saw: a fresh one per guess must not make a fresh client. One e-mail per guess, so only the per-IP
    // limit can stop it.
    name: 'forged X-Forwarded-For with TRUST_PROXY=1: 300 log-in guesses over 300 e-mails',
    capMs: 45_000,
    async run(ctx) {
      const started = performance.now();
      const proxySaw = '203.0.113.66';
      const statuses = await pool(300, 10, async (i) => {
        const res = await call(ctx.base, null, 'POST', '/api/auth/login', {
          body: { email: `guess-${i}@g.ucla.edu`, password: `guess-${i}` },
          ip: `${randomIp()}, ${proxySaw}`,
          signal: ctx.signal,
        });
        return res.status;
      });
      ctx.progress.status = tally(statuses);
      const checked = statuses.filter((s) => s === 401).length;
      return {
        status: tally(statuses),
        answerMs: performance.now() - started,
        expectOk: checked <= LIMIT_RULES.login.perIp && !statuses.some(serverError),
        note: `${checked} passwords checked; limit ${LIMIT_RULES.login.perIp} failures per IP per window`,
      };
    },
  },

  // Fair share of requests in work.
  {
    // An Upgrade header that is no WebSocket upgrade on /api/ws (Node serves it as an ordinary request) gets no
    // way around the per-client cap: the burst is served a few at a time, and another student's search meanwhile
    // is answered at once.
    name: 'Upgrade burst: 1,000 concurrent "Upgrade: x" GET /api/search',
    answerTargetMs: 1000,
    async run(ctx) {
      const started = performance.now();
      const headers = { cookie: ctx.fx.attacker.cookie, 'x-forwarded-for': ctx.fx.attacker.ip, upgrade: 'x' };
      const burst = Promise.all(
        Array.from({ length: 1000 }, (_, i) => rawGet(ctx.base, `/api/search?q=cell+${i % 10}`, headers, 25_000)),
      );
      await sleep(200);
      const peer = await call(ctx.base, ctx.fx.peer, 'GET', '/api/search?q=cell', { signal: ctx.signal });
      const statuses = await burst;
      const served = statuses.filter(ok).length;
      return {
        status: `${tally(statuses)}; another student's search ${peer.status}`,
        answerMs: peer.ms,
        expectOk: peer.status === 200 && served <= SEARCH_LIMITS.perMinute && statuses.every((s) => ok(s) || s === 429),
        note: `burst answered in ${((performance.now() - started) / 1000).toFixed(1)} s; answer time is the other student's search`,
      };
    },
  },

  // Access.
  {
    name: 'tus PATCH|HEAD|DELETE /api/resumable/<mine>?x=/<victim>',
    async run(ctx) {
      const tus = { 'tus-resumable': '1.0.0' };
      const started = performance.now();
      const created = await call(ctx.base, ctx.fx.attacker, 'POST', '/api/resumable', {
        headers: {
          ...tus,
          'upload-length': '500000',
          'upload-metadata': tusMetadata({
            target: 'course-document',
            filename: 'a.pdf',
            filetype: 'application/pdf',
            courseId: 'seed-0',
          }),
        },
      });
      const mine = new URL(created.headers.get('location') ?? '/none', ctx.base).pathname;
      const victimId = ctx.fx.victimUploadUrl.split('/').pop()!;
      const trick = `${mine}?x=/${victimId}`;
      const head = await call(ctx.base, ctx.fx.attacker, 'HEAD', trick, { headers: tus });
      const patch = await call(ctx.base, ctx.fx.attacker, 'PATCH', trick, {
        headers: {
          ...tus,
          'upload-offset': String(VICTIM_UPLOAD.offset),
          'content-type': 'application/offset+octet-stream',
        },
        raw: new Uint8Array(1000),
      });
      const del = await call(ctx.base, ctx.fx.attacker, 'DELETE', trick, { headers: tus });
      const sawVictim = head.headers.get('upload-length') === String(VICTIM_UPLOAD.length);
      const wroteVictim = ok(patch.status);
      return {
        status: `create ${created.status}, HEAD ${head.status}, PATCH ${patch.status}, DELETE ${del.status}`,
        answerMs: performance.now() - started,
        expectOk: !sawVictim && !wroteVictim,
        note: [sawVictim && "HEAD read the victim's upload", wroteVictim && "PATCH wrote into the victim's upload"]
          .filter(Boolean)
          .join('; '),
      };
    },
  },
  {
    name: "hot group of a course the student doesn't take",
    async run(ctx) {
      const started = performance.now();
      const { courseId, itemId } = VICTIM_COURSE;
      const open = await call(ctx.base, ctx.fx.attacker, 'POST', '/api/hot-groups', {
        body: { courseId, itemId, name: 'Free answers here' },
      });
      const id = (open.body as { id?: string } | null)?.id ?? ctx.fx.hotGroup?.id ?? `${courseId}_${itemId}`;
      const read = await call(ctx.base, ctx.fx.attacker, 'GET', `/api/groups/${encodeURIComponent(id)}/messages`);
      return {
        status: `open ${open.status}, history ${read.status}`,
        answerMs: performance.now() - started,
        expectOk: refused(open.status) && refused(read.status),
      };
    },
  },
  {
    // Issue 23 point 3: the attacker writes the victim's Canvas course id into their own profile, then tries the
    // course's hot group every way in: join, details, history, a message, its live topic, the hot-group list.
    name: 'borrowed course: a victim course id in the profile, then its hot group',
    async run(ctx) {
      const started = performance.now();
      const { courseId, itemId } = VICTIM_COURSE;
      const id = ctx.fx.hotGroup?.id ?? `${courseId}_${itemId}`;
      const group = `/api/groups/${encodeURIComponent(id)}`;
      const own = await call(ctx.base, ctx.fx.attacker, 'GET', '/api/profile', { signal: ctx.signal });
      const courses = [
        ...((own.body as { courses?: unknown[] } | null)?.courses ?? []),
        { id: courseId, name: 'CHEM 2' },
      ];
      const saved = await putProfile(ctx, { courses });
      const savedIds = ((saved.body as { courses?: { id: string }[] } | null)?.courses ?? []).map((c) => c.id);
      const borrowed = savedIds.includes(courseId);
      const open = await call(ctx.base, ctx.fx.attacker, 'POST', '/api/hot-groups', {
        body: { courseId, itemId, name: 'Free answers here' },
        signal: ctx.signal,
      });
      const details = await call(ctx.base, ctx.fx.attacker, 'GET', group, { signal: ctx.signal });
      const read = await call(ctx.base, ctx.fx.attacker, 'GET', `${group}/messages`, { signal: ctx.signal });
      const send = await call(ctx.base, ctx.fx.attacker, 'POST', `${group}/messages`, {
        body: textMessage('Answers for sale')(),
        signal: ctx.signal,
      });
      const listed = await call(ctx.base, ctx.fx.attacker, 'GET', '/api/groups?kind=hot', { signal: ctx.signal });
      const inList = JSON.stringify(listed.body).includes(id);
      const live = await subscribeAnswer(ctx, ctx.fx.attacker, conversationTopic({ kind: 'group', id }));
      const statuses = [open.status, details.status, read.status, send.status];
      return {
        status: `profile ${saved.status}, open ${open.status}, details ${details.status}, history ${read.status}, send ${send.status}, live ${live}`,
        answerMs: performance.now() - started,
        expectOk: ok(saved.status) && !borrowed && statuses.every(refused) && !inList && live !== 'subscribed',
        note: [borrowed && 'the profile kept the borrowed course id', inList && 'the hot group is in the list']
          .filter(Boolean)
          .join('; '),
      };
    },
  },

  {
    // Issue 23 point 6: a "voice message" that is a web page, on both upload paths (9 MB through tus, staged).
    name: 'disguised voice file (HTML labelled audio/wav, multipart and tus)',
    async run(ctx) {
      const started = performance.now();
      const chat = { kind: 'chat', id: ctx.fx.attackerChatId };
      const page = Buffer.from('<!doctype html><html><body><script>fetch("/api/profile")</script></body></html>\n');
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(page)], { type: 'audio/wav' }), 'voice.wav');
      const url = `/api/uploads/chat-voice?${new URLSearchParams(chat)}`;
      const plain = await call(ctx.base, ctx.fx.attacker, 'POST', url, { raw: form, signal: ctx.signal });
      const big = Buffer.concat([page, Buffer.alloc(9 * 1024 * 1024, 0x20)]);
      const tus = { 'tus-resumable': '1.0.0' };
      const created = await call(ctx.base, ctx.fx.attacker, 'POST', '/api/resumable', {
        headers: {
          ...tus,
          'upload-length': String(big.length),
          'upload-metadata': tusMetadata({
            target: 'chat-voice',
            filename: 'voice.wav',
            filetype: 'audio/wav',
            ...chat,
          }),
        },
        signal: ctx.signal,
      });
      const location = created.headers.get('location');
      const patch = location
        ? await call(ctx.base, ctx.fx.attacker, 'PATCH', new URL(location, ctx.base).pathname, {
            headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
            raw: new Uint8Array(big),
            signal: ctx.signal,
          })
        : null;
      const storedUrl = (a: typeof plain | null) => (a?.body as { file?: { url?: string } } | null)?.file?.url;
      const stored = [storedUrl(plain), storedUrl(patch)].filter(Boolean);
      return {
        status: `multipart ${plain.status}, tus create ${created.status} → PATCH ${patch?.status ?? '-'}`,
        answerMs: performance.now() - started,
        expectOk: refused(plain.status) && (refused(created.status) || refused(patch?.status ?? 0)) && !stored.length,
        note: stored.length ? `stored as a voice file: ${stored.join(', ')}` : undefined,
      };
    },
  },

  // Quotas.
  {
    name: '100 WebSocket connections from one student',
    async run(ctx) {
      const started = performance.now();
      const { opened, stillOpen } = await openSockets(ctx, ctx.fx.attacker, 100);
      return {
        status: `${opened} opened, ${stillOpen} still open`,
        answerMs: performance.now() - started,
        expectOk: stillOpen <= ctx.limits.socketsPerStudent,
        note: `limit ${ctx.limits.socketsPerStudent}`,
      };
    },
  },
  {
    name: '200 friend requests',
    async run(ctx) {
      const started = performance.now();
      const statuses = await pool(ctx.fx.classmates.length, 5, async (i) => {
        const res = await call(ctx.base, ctx.fx.attacker, 'POST', '/api/social/requests', {
          body: { toUserId: ctx.fx.classmates[i] },
          signal: ctx.signal,
        });
        return res.status;
      });
      return {
        status: tally(statuses),
        answerMs: performance.now() - started,
        expectOk: statuses.filter(ok).length <= ctx.limits.friendRequestsPerDay,
        note: `limit ${ctx.limits.friendRequestsPerDay}/day`,
      };
    },
  },
  {
    name: '100 feedback posts from one IP (signed out)',
    async run(ctx) {
      const started = performance.now();
      const statuses = await pool(100, 5, async (i) => {
        const res = await call(ctx.base, null, 'POST', '/api/feedback', {
          body: { feedback: `Great app ${i}`, rating: 5 },
          ip: '203.0.113.9',
          signal: ctx.signal,
        });
        return res.status;
      });
      return {
        status: tally(statuses),
        answerMs: performance.now() - started,
        expectOk: statuses.filter(ok).length <= ctx.limits.feedbackPerHour,
        note: `limit ${ctx.limits.feedbackPerHour}/hour`,
      };
    },
  },
  {
    name: '60 × 24 MB document uploads in a minute',
    capMs: 90_000,
    prepare: payload.big,
    async run(ctx) {
      const started = performance.now();
      const big = await payload.big();
      const statuses = await pool(60, 3, async (i) => {
        if (ctx.signal.aborted) return 0;
        const up = await uploadDocument(ctx.base, ctx.fx.attacker, big, `big-${i}.pdf`, 'application/pdf', ctx.signal);
        return up.status;
      });
      const accepted = statuses.filter(ok).length;
      const allowed = Math.floor(ctx.limits.storageBytes / big.length);
      return {
        status: tally(statuses),
        answerMs: performance.now() - started,
        expectOk: accepted <= Math.min(allowed, ctx.limits.documentsPerDay),
        note: `${((accepted * big.length) / 1024 ** 3).toFixed(2)} GB kept; storage limit ${(ctx.limits.storageBytes / 1024 ** 3).toFixed(1)} GB`,
      };
    },
  },
  {
    name: '250 resumable uploads started (25 MB each)',
    async run(ctx) {
      const started = performance.now();
      const statuses = await pool(250, 5, async (i) => {
        const res = await call(ctx.base, ctx.fx.attacker, 'POST', '/api/resumable', {
          headers: {
            'tus-resumable': '1.0.0',
            'upload-length': String(25 * 1024 * 1024),
            'upload-metadata': tusMetadata({
              target: 'course-document',
              filename: `part-${i}.pdf`,
              filetype: 'application/pdf',
              courseId: 'seed-0',
            }),
          },
          signal: ctx.signal,
        });
        return res.status;
      });
      return {
        status: tally(statuses),
        answerMs: performance.now() - started,
        expectOk: statuses.filter(ok).length <= ctx.limits.uploadsPerDay,
        note: `limit ${ctx.limits.uploadsPerDay}/day`,
      };
    },
  },
  flashcardsCase,
];

/** The scanned one-pager that warms the OCR worker before a document case. */
export const warmUpDocument = payload.scanned1;
export { ATTACKER_IP };
