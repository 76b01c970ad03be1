import type { TextUnit } from '@studybuddy/shared/documents-api';
import type { AppContext } from '../../platform/context.ts';
import type { PageText } from './text-types.ts';
import { pagesBetween } from './document-pages.repository.ts';
import { findStudyDocument } from './documents.repository.ts';

/** Where a document stands for studying from it: its text is there (`ready`), could not be read, or is on its way. */
export type StudySourceState = 'ready' | 'failed' | 'processing';

export interface StudySource {
  id: string;
  name: string;
  state: StudySourceState;
  /** Why extraction failed (the document's own error text), when it did. */
  failure: string | null;
  /** The pages in the range asked for (only when `ready`). */
  pages: PageText[];
}

/**
 * One of the student's own documents with the text of its pages `from`..`to` (flashcards and practice quizzes,
 * issue 28): null when the student has no such document.
 */
export async function studySource(
  ctx: AppContext,
  userId: string,
  documentId: string,
  range: { from?: number; to?: number } = {},
): Promise<StudySource | null> {
  if (!/^[0-9a-f-]{36}$/i.test(documentId)) return null;
  const doc = await findStudyDocument(ctx.db, userId, documentId);
  if (!doc) return null;
  const state: StudySourceState = doc.status === 'done' ? 'ready' : doc.status === 'failed' ? 'failed' : 'processing';
  const pages =
    state === 'ready'
      ? (await pagesBetween(ctx.db, doc.id, range.from ?? 1, range.to ?? 2_147_483_647)).map((p) => ({
          ...p,
          unit: p.unit as TextUnit,
        }))
      : [];
  return { id: doc.id, name: doc.name, state, failure: state === 'failed' ? doc.errorMessage : null, pages };
}
