import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  COURSE_DOCUMENT_UPLOAD_TARGET,
  PROCESSING_STATUSES,
  type AskDocumentResponse,
  type CourseDocumentDto,
  type CourseDocumentsResponse,
  type DocumentDetailDto,
  type DocumentPageDto,
  type DocumentSearchHit,
  type DocumentStatus,
  type UploadDocumentResponse,
} from '@studybuddy/shared/documents-api';
import { api } from '../../lib/api.ts';
import { startUpload, type UploadSnapshot, type UploadTask } from '../../lib/upload.ts';

/**
 * Query keys: everything under ['documents'], so a `document.changed` event (live-handlers.ts) refreshes
 * whatever is on screen. Polling covers processing too, in case the socket is down.
 */
export const documentKeys = {
  all: ['documents'] as const,
  course: (courseId: string) => ['documents', 'course', courseId] as const,
  detail: (id: string) => ['documents', 'detail', id] as const,
  pages: (id: string) => ['documents', 'pages', id] as const,
  search: (courseId: string, q: string) => ['documents', 'search', courseId, q] as const,
};

export const isProcessing = (status: DocumentStatus) => PROCESSING_STATUSES.includes(status);

const enc = encodeURIComponent;

export function useCourseDocuments(courseId: string | null) {
  return useQuery({
    queryKey: documentKeys.course(courseId ?? ''),
    queryFn: () => api<CourseDocumentsResponse>(`/api/courses/${enc(courseId!)}/documents`),
    enabled: !!courseId,
    refetchInterval: (q) => (q.state.data?.documents.some((d) => isProcessing(d.status)) ? 3000 : false),
  });
}

export function useDocument(id: string | null) {
  return useQuery({
    queryKey: documentKeys.detail(id ?? ''),
    queryFn: () => api<DocumentDetailDto>(`/api/documents/${enc(id!)}`),
    enabled: !!id,
    refetchInterval: (q) => (q.state.data && isProcessing(q.state.data.status) ? 1000 : false),
  });
}

export function useDocumentPages(id: string | null, enabled: boolean) {
  return useQuery({
    queryKey: documentKeys.pages(id ?? ''),
    queryFn: async () => (await api<{ pages: DocumentPageDto[] }>(`/api/documents/${enc(id!)}/pages`)).pages,
    enabled: !!id && enabled,
  });
}

export function useCourseSearch(courseId: string | null, q: string) {
  return useQuery({
    queryKey: documentKeys.search(courseId ?? '', q),
    queryFn: async () =>
      (await api<{ hits: DocumentSearchHit[] }>(`/api/courses/${enc(courseId!)}/search?q=${enc(q)}`)).hits,
    enabled: !!courseId && q.length >= 2,
    staleTime: 30_000,
  });
}

/** Starts processing a Canvas file (or retries a failed document) when it is opened. */
export function useProcessDocument() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<{ document: CourseDocumentDto }>(`/api/documents/${enc(id)}/process`, { body: {} }),
    onSuccess: () => client.invalidateQueries({ queryKey: documentKeys.all }),
  });
}

export function useAskDocument(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (question: string) =>
      api<AskDocumentResponse>('/api/ask-document', { body: { document_id: id, question } }),
    onSuccess: (res) => {
      const stored = res.question;
      if (!stored) return;
      client.setQueryData<DocumentDetailDto>(documentKeys.detail(id), (doc) =>
        doc ? { ...doc, questions: [...doc.questions.filter((q) => q.id !== stored.id), stored] } : doc,
      );
    },
  });
}

/**
 * Uploads through the files platform (lib/upload.ts: one request up to 262144 bytes, resumable above), then
 * makes it a document of the course. Progress is reported as 0..1.
 */
export function uploadCourseDocument(
  file: File,
  courseId: string,
  onProgress: (fraction: number) => void,
): { task: UploadTask; done: Promise<UploadDocumentResponse> } {
  const task = startUpload(file, {
    target: COURSE_DOCUMENT_UPLOAD_TARGET,
    params: { courseId },
    filename: file.name,
    onProgress: (s: UploadSnapshot) => onProgress(s.totalBytes ? s.bytesTransferred / s.totalBytes : 0),
  });
  const done = task.promise.then((stored) =>
    api<UploadDocumentResponse>('/api/documents', { body: { courseId, path: stored.path, name: file.name } }),
  );
  return { task, done };
}
