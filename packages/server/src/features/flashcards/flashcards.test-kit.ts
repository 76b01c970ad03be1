import { randomBytes } from 'node:crypto';
import type { App } from '../../app.ts';
import type { TestUser } from '../../test/users.ts';

/** Requests of the flashcards tests: a document uploaded and processed, and JSON calls. */

export async function processedDocument(app: App, user: TestUser, text: string | Buffer, filename = 'notes.txt') {
  const boundary = `----sbfc${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="courseId"\r\n\r\nseed-0\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    Buffer.isBuffer(text) ? text : Buffer.from(text),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await app.inject({
    method: 'POST',
    url: '/api/upload-document',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: user.cookie },
    payload,
  });
  if (res.statusCode !== 201) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
  const id = res.json<{ document: { id: string } }>().document.id;
  for (;;) {
    const doc = await app.inject({ url: `/api/documents/${id}`, headers: { cookie: user.cookie } });
    const status = doc.json<{ status: string }>().status;
    if (status === 'done' || status === 'failed') return { id, status };
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function call(
  app: App,
  user: TestUser,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  return app.inject({
    method,
    url,
    headers: { cookie: user.cookie },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** Sentences with key terms, dates, numbers and names: a small course text to make cards from. */
export const COURSE_TEXT = [
  'Photosynthesis is the process by which green plants turn light, water and carbon dioxide into sugar.',
  'The Treaty of Versailles was signed on June 28, 1919 in the Hall of Mirrors.',
  'About 71% of the surface of the Earth is covered by water.',
  'Marie Curie won the Nobel Prize in Physics together with Pierre Curie and Henri Becquerel.',
  'A mitochondrion is an organelle that produces most of the chemical energy of the cell.',
  'The Battle of Hastings was fought between the Norman army and the English army.',
  'The Berlin Wall fell on November 9, 1989 after weeks of protest.',
  'Osmosis is the movement of water through a membrane from a dilute to a concentrated solution.',
  'The human heart beats about 100,000 times in a single day.',
  'Charles Darwin sailed around the world on the ship named Beagle with Robert FitzRoy.',
  'Mount Everest rises 8,849 metres above the level of the sea.',
  'An enzyme is a protein that speeds up a chemical reaction without being used up.',
].join(' ');
