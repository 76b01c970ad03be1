/**
 * Pure rules of course documents (requirements §5 document type and syllabus detection, §9 size formatting and
 * suggested questions).
 */

export const DOCUMENT_TYPES = ['document', 'presentation', 'spreadsheet', 'video', 'audio', 'image', 'other'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const DOCUMENT_TYPE_LABELS: Record<DocumentType, string> = {
  document: 'Document',
  presentation: 'Presentation',
  spreadsheet: 'Spreadsheet',
  video: 'Video',
  audio: 'Audio',
  image: 'Image',
  other: 'Other',
};

const TYPE_BY_EXTENSION: Record<string, DocumentType> = {
  pdf: 'document',
  doc: 'document',
  docx: 'document',
  txt: 'document',
  rtf: 'document',
  ppt: 'presentation',
  pptx: 'presentation',
  key: 'presentation',
  xls: 'spreadsheet',
  xlsx: 'spreadsheet',
  csv: 'spreadsheet',
  mp4: 'video',
  mov: 'video',
  avi: 'video',
  wmv: 'video',
  mp3: 'audio',
  wav: 'audio',
  ogg: 'audio',
  jpg: 'image',
  jpeg: 'image',
  png: 'image',
  gif: 'image',
  bmp: 'image',
};

/** Requirements §5 extensions whose upload shows the OCR message. */
export const OCR_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'pdf'] as const;

/** Lower-case extension after the last dot ('' when there is none). */
export function fileExtension(name: string): string {
  const base = name.trim().split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 && dot < base.length - 1 ? base.slice(dot + 1).toLowerCase() : '';
}

/** Requirements §5: document type by extension; anything else is 'other'. */
export function documentTypeFor(name: string): DocumentType {
  return TYPE_BY_EXTENSION[fileExtension(name)] ?? 'other';
}

/** Requirements §5: images (jpg, jpeg, png, gif, bmp) and pdf trigger the OCR message on upload. */
export function triggersOcrMessage(name: string): boolean {
  return (OCR_EXTENSIONS as readonly string[]).includes(fileExtension(name));
}

/** Requirements §5: the name contains 'syllabus' or 'course outline' (any case). */
export function isSyllabus(name: string): boolean {
  const n = name.toLowerCase().replace(/[\s_-]+/g, ' ');
  return n.includes('syllabus') || n.includes('course outline');
}

const SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB'] as const;

/** Requirements §9: Bytes, KB, MB, GB, base 1024, two decimals (trailing zeros dropped, as in "1.5 KB"). */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const i = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), SIZE_UNITS.length - 1);
  const value = Number.parseFloat((bytes / 1024 ** i).toFixed(2));
  return `${value} ${SIZE_UNITS[i]}`;
}

export const DOCUMENT_KINDS = ['syllabus', 'assignment', 'lecture', 'research', 'general'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

const KIND_PATTERNS: [Exclude<DocumentKind, 'syllabus' | 'general'>, RegExp][] = [
  [
    'assignment',
    /\b(assignments?|homework|hw\s?\d*|problem sets?|psets?\d*|worksheets?|projects?|labs?\s?\d*|essay|prompt|rubric)\b/,
  ],
  ['lecture', /\b(lectures?|lec\s?\d*|slides?|notes|week\s?\d+|chapters?|ch\s?\d+|module|unit\s?\d+|class)\b/],
  ['research', /\b(research|paper|article|journal|study|studies|review|thesis|dissertation|preprint|proceedings)\b/],
];

/** Which suggested-question set fits a document: by name, and presentations count as lectures. */
export function documentKind(name: string, type: DocumentType = documentTypeFor(name)): DocumentKind {
  if (isSyllabus(name)) return 'syllabus';
  const n = name
    .toLowerCase()
    .replace(/\.[a-z0-9]+$/, '')
    .replace(/[_\-.]+/g, ' ');
  for (const [kind, pattern] of KIND_PATTERNS) if (pattern.test(n)) return kind;
  if (type === 'presentation') return 'lecture';
  return 'general';
}

/** Requirements §9: five suggested questions per kind; the general kind has three. */
export const SUGGESTED_QUESTIONS: Record<DocumentKind, readonly string[]> = {
  syllabus: [
    'When are the exams and major deadlines?',
    'How is the final grade calculated?',
    'What are the required textbooks and materials?',
    'What is the policy on late work?',
    'When are the office hours?',
  ],
  assignment: [
    'What does this assignment ask me to do?',
    'When is it due and how do I submit it?',
    'How will it be graded?',
    'What are the length and formatting requirements?',
    'Which sources or materials should I use?',
  ],
  lecture: [
    'What are the main topics covered?',
    'What are the key definitions?',
    'What are the most important points to remember?',
    'What examples are given?',
    'What should I review for the exam?',
  ],
  research: [
    'What is the main research question?',
    'What methods were used?',
    'What are the key findings?',
    'What are the limitations of the study?',
    'What do the authors conclude?',
  ],
  general: ['What is this document about?', 'What are the key points?', 'What should I remember from this document?'],
};

export function suggestedQuestions(name: string, type?: DocumentType): readonly string[] {
  return SUGGESTED_QUESTIONS[documentKind(name, type)];
}

/** Largest accepted upload (any type). Larger files get a clear 413 before anything is stored. */
export const DOCUMENT_MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
/** Longest question accepted. */
export const QUESTION_MAX_CHARS = 1000;
/** Longest text accepted by /api/summarize-text. */
export const SUMMARIZE_TEXT_MAX_CHARS = 500_000;
