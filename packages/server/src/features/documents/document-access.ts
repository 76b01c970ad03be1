import { MSG } from '@studybuddy/shared/messages';
import type { Db } from '../../db/connect.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { profiles } from '../profile/profiles.service.ts';
import { findOwnByCanvasUrl, findOwnDocument, type DocumentRow } from './documents.repository.ts';

/**
 * Who may touch what, for every room of the feature: a student adds documents to the courses of their profile only
 * (the upload target, a direct upload, a finished resumable upload), and reads and works on their own documents
 * only (requirements §6: another student's document is as missing as one that does not exist).
 */

/** Refuses a course that is not one of the student's (400 on the courseId field). */
export async function assertOwnCourse(db: Db, userId: string, courseId: string | undefined): Promise<void> {
  const courses = await profiles.courses(db, userId);
  if (!courses.some((c) => c.id === courseId)) throw badRequest(MSG.courses.courseRequired, 'courseId');
}

/** One of the student's documents by id, or 404. */
export async function ownDocument(db: Db, userId: string, id: string): Promise<DocumentRow> {
  const doc = /^[0-9a-f-]{36}$/i.test(id) ? await findOwnDocument(db, userId, id) : undefined;
  if (!doc) throw notFound();
  return doc;
}

/** A document named by id, or by the url the list gave out (requirements §7 sends document_url), or 404. */
export async function resolveDocument(
  db: Db,
  userId: string,
  ref: { document_id?: string; document_url?: string },
): Promise<DocumentRow> {
  if (ref.document_id) return ownDocument(db, userId, ref.document_id);
  const match = /\/api\/documents\/([0-9a-f-]{36})\/file/i.exec(ref.document_url ?? '');
  if (match) return ownDocument(db, userId, match[1]!);
  const byCanvasUrl = ref.document_url ? await findOwnByCanvasUrl(db, userId, ref.document_url) : undefined;
  if (byCanvasUrl) return byCanvasUrl;
  throw notFound();
}
