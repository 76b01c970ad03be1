import type { DocumentType } from '@studybuddy/shared/documents';
import type {
  CitationDto,
  CourseDocumentDto,
  DocumentDetailDto,
  DocumentErrorDto,
  DocumentErrorKind,
  DocumentQuestionDto,
  DocumentSource,
  DocumentStatus,
  SummaryEngine,
  TextUnit,
} from '@studybuddy/shared/documents-api';
import { MSG } from '@studybuddy/shared/messages';
import type { PageRow } from './document-pages.repository.ts';
import type { QuestionRow } from './document-questions.repository.ts';
import type { DocumentRow } from './documents.repository.ts';
import type { PageText } from './text-types.ts';

export const fileUrl = (id: string) => `/api/documents/${id}/file`;

const STEPS: Partial<Record<DocumentErrorKind, readonly string[]>> = {
  ocr_failed: MSG.courses.ocrFailedSteps,
  access_denied: MSG.courses.accessDeniedSteps,
};

function errorOf(row: DocumentRow): DocumentErrorDto | null {
  if (!row.errorMessage) return null;
  const kind = (row.errorKind ?? 'error') as DocumentErrorKind;
  return { kind, message: row.errorMessage, steps: [...(STEPS[kind] ?? [])] };
}

export function toDocumentDto(row: DocumentRow): CourseDocumentDto {
  const status = row.status as DocumentStatus;
  return {
    id: row.id,
    courseId: row.courseId,
    name: row.name,
    type: row.type as DocumentType,
    source: row.source as DocumentSource,
    size: row.size,
    createdAt: (row.canvasCreatedAt ?? row.createdAt).toISOString(),
    url: row.storagePath || !row.canvasUrl ? fileUrl(row.id) : row.canvasUrl,
    moduleName: row.moduleName,
    status,
    progress:
      status === 'ocr' && row.progressPage && row.progressPages
        ? { page: row.progressPage, pages: row.progressPages }
        : null,
    processed: row.processed,
    error: errorOf(row),
  };
}

export function toQuestionDto(row: QuestionRow): DocumentQuestionDto {
  return {
    id: row.id,
    question: row.question,
    answer: row.answer,
    shortAnswer: row.shortAnswer ?? null,
    citations: row.citations as CitationDto[],
    found: row.found,
    createdAt: row.createdAt.toISOString(),
  };
}

export function toDetailDto(row: DocumentRow, questions: QuestionRow[]): DocumentDetailDto {
  return {
    ...toDocumentDto(row),
    summary: row.summary,
    keyTerms: row.keyTerms,
    summaryEngine: row.summaryEngine as SummaryEngine | null,
    ocrUsed: row.ocrUsed,
    hasText: !!row.text?.trim(),
    questions: questions.map(toQuestionDto),
  };
}

export const toPageText = (p: PageRow): PageText => ({
  page: p.page,
  unit: p.unit as TextUnit,
  label: p.label,
  text: p.text,
});
