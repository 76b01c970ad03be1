import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { DOCUMENT_MAX_UPLOAD_BYTES, formatFileSize } from '@studybuddy/shared/documents';
import { LIMITS } from '@studybuddy/shared/limits';
import { MSG } from '@studybuddy/shared/messages';
import { ApiRequestError } from '../../lib/api.ts';
import { UploadError } from '../../lib/upload.ts';
import { documentKeys, uploadCourseDocument, useDocument } from './documents-api.ts';

export interface UploadView {
  /** 0..1 while a file is going up. */
  progress: number | null;
  fileName: string | null;
  error: string | null;
  /** Images and PDFs: the OCR message, until their text is in. */
  ocrPending: boolean;
  /** Shown for 5 s once OCR has finished (requirements §9). */
  ocrSuccess: boolean;
}

function messageOf(err: unknown): string {
  if (err instanceof UploadError && err.code === 'quota-exceeded') {
    return MSG.courses.fileTooLarge(formatFileSize(DOCUMENT_MAX_UPLOAD_BYTES));
  }
  if (err instanceof ApiRequestError && err.status >= 400 && err.status < 500) return err.message;
  if (err instanceof UploadError && err.code === 'invalid-argument') return err.message;
  return MSG.courses.uploadFailed;
}

/** Upload Document: progress, the OCR message, then the new document opens after 500 ms. */
export function useDocumentUpload(courseId: string | null, open: (documentId: string) => void) {
  const client = useQueryClient();
  const [view, setView] = useState<UploadView>({
    progress: null,
    fileName: null,
    error: null,
    ocrPending: false,
    ocrSuccess: false,
  });
  const [watchId, setWatchId] = useState<string | null>(null);
  const watched = useDocument(watchId);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  const status = watched.data?.status;
  useEffect(() => {
    if (!watchId || (status !== 'done' && status !== 'failed')) return;
    const succeeded = status === 'done';
    setWatchId(null);
    setView((v) => ({ ...v, ocrPending: false, ocrSuccess: succeeded }));
    if (succeeded)
      timers.current.push(setTimeout(() => setView((v) => ({ ...v, ocrSuccess: false })), LIMITS.ocrMessageMs));
  }, [status, watchId]);

  const upload = useCallback(
    async (file: File) => {
      if (!courseId) return;
      if (file.size > DOCUMENT_MAX_UPLOAD_BYTES) {
        setView((v) => ({ ...v, error: MSG.courses.fileTooLarge(formatFileSize(DOCUMENT_MAX_UPLOAD_BYTES)) }));
        return;
      }
      setView({ progress: 0, fileName: file.name, error: null, ocrPending: false, ocrSuccess: false });
      try {
        const { done } = uploadCourseDocument(file, courseId, (p) => setView((v) => ({ ...v, progress: p })));
        const res = await done;
        setView((v) => ({ ...v, progress: null, fileName: null, ocrPending: res.ocr }));
        if (res.ocr) setWatchId(res.document.id);
        await client.invalidateQueries({ queryKey: documentKeys.course(courseId) });
        timers.current.push(setTimeout(() => open(res.document.id), LIMITS.openUploadedDocMs));
      } catch (err) {
        setView((v) => ({ ...v, progress: null, fileName: null, error: messageOf(err) }));
      }
    },
    [client, courseId, open],
  );

  const dismissError = useCallback(() => setView((v) => ({ ...v, error: null })), []);
  return { view, upload, dismissError };
}
