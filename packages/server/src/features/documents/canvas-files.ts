import type { CanvasCourseFile } from '../../platform/registry.ts';

/**
 * What the documents feature needs from Canvas: the files of a course (with the module they appear in)
 * and one file's bytes. The LMS feature provides it (see documents.feature.ts); errors carry their kind.
 * A course file is the registry's shape, as the LMS feature lists it.
 */
export type CanvasFileInfo = CanvasCourseFile;

export type CanvasFailure = 'not_connected' | 'forbidden' | 'auth' | 'not_found' | 'unreachable' | 'failed';

export class CanvasFilesError extends Error {
  constructor(
    readonly kind: CanvasFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface CanvasFilesSource {
  /** Both the Canvas address and the token are stored and non-blank (requirements §5). */
  isConnected(userId: string): Promise<boolean>;
  /** The course's files and the files its modules link to (with `moduleName`). */
  listCourseFiles(userId: string, courseId: string): Promise<CanvasFileInfo[]>;
  /** The bytes of one file of the course. */
  downloadFile(userId: string, courseId: string, fileId: string): Promise<{ bytes: Buffer; contentType: string }>;
}
