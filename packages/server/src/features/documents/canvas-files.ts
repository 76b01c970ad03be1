/**
 * What the documents feature needs from Canvas: the files of a course (with the module they appear in)
 * and one file's bytes. The LMS feature provides it (see documents.routes.ts); errors carry their kind.
 */
export interface CanvasFileInfo {
  id: string;
  displayName: string;
  filename: string;
  size: number;
  /** Canvas download address (capability URL). */
  url: string;
  contentType: string;
  createdAt: string | null;
  moduleName: string | null;
}

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

/** Until an LMS connection exists, Canvas has no files for anyone. */
export const noCanvas: CanvasFilesSource = {
  isConnected: async () => false,
  listCourseFiles: async () => {
    throw new CanvasFilesError('not_connected', 'Canvas is not connected');
  },
  downloadFile: async () => {
    throw new CanvasFilesError('not_connected', 'Canvas is not connected');
  },
};

const sources = new WeakMap<object, CanvasFilesSource>();

/** Plugs a Canvas files source into an app (the LMS wiring, or a test's emulator-backed source). */
export function setCanvasFilesSource(ctx: object, source: CanvasFilesSource): void {
  sources.set(ctx, source);
}

/** The app's Canvas files source, or one that has no Canvas. */
export function canvasFilesFor(ctx: object): CanvasFilesSource {
  return sources.get(ctx) ?? noCanvas;
}
