import { randomBytes } from 'node:crypto';
import type { CourseDocumentDto, DocumentDetailDto, DocumentStatus } from '@studybuddy/shared/documents-api';
import type { App } from '../../../app.ts';
import type { TestUser } from '../../../test/users.ts';

/** A multipart/form-data body: text fields, then one file. */
export function formData(
  file: { data: Buffer; filename: string; contentType?: string },
  fields: Record<string, string> = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----sbdoc${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\n` +
        `Content-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export async function upload(app: App, user: TestUser, data: Buffer, filename: string, courseId = 'seed-0') {
  const body = formData({ data, filename }, { courseId });
  return app.inject({
    method: 'POST',
    url: '/api/upload-document',
    headers: { ...body.headers, cookie: user.cookie },
    payload: body.payload,
  });
}

export async function uploadOk(app: App, user: TestUser, data: Buffer, filename: string, courseId = 'seed-0') {
  const res = await upload(app, user, data, filename, courseId);
  if (res.statusCode !== 201) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
  return res.json<{ document: CourseDocumentDto; ocr: boolean; fileType: string; filename: string }>();
}

export async function detail(app: App, user: TestUser, id: string): Promise<DocumentDetailDto> {
  const res = await app.inject({ url: `/api/documents/${id}`, headers: { cookie: user.cookie } });
  if (res.statusCode !== 200) throw new Error(`detail failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Polls the document until its status is one of `until`; records every status seen on the way. */
export async function waitFor(
  app: App,
  user: TestUser,
  id: string,
  until: DocumentStatus[] = ['done', 'failed'],
  timeoutMs = 90_000,
): Promise<{ doc: DocumentDetailDto; seen: string[] }> {
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const doc = await detail(app, user, id);
    const label = doc.progress ? `${doc.status} ${doc.progress.page}/${doc.progress.pages}` : doc.status;
    if (seen[seen.length - 1] !== label) seen.push(label);
    if (until.includes(doc.status)) return { doc, seen };
    if (Date.now() > deadline) throw new Error(`document stuck in ${doc.status}: ${seen.join(' > ')}`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

export function ask(app: App, user: TestUser, documentId: string, question: string) {
  return app.inject({
    method: 'POST',
    url: '/api/ask-document',
    headers: { cookie: user.cookie },
    payload: { document_id: documentId, question },
  });
}

/** POST /api/summarize-document as the student (a stored document by id, or a document sent by address). */
export function summarize(app: App, user: TestUser, payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/api/summarize-document', headers: { cookie: user.cookie }, payload });
}
