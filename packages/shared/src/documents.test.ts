import { describe, expect, it } from 'vitest';
import {
  DOCUMENT_KINDS,
  SUGGESTED_QUESTIONS,
  documentKind,
  documentTypeFor,
  fileExtension,
  formatFileSize,
  isSyllabus,
  suggestedQuestions,
  triggersOcrMessage,
} from './documents.ts';
import { askDocumentInputSchema, fetchCourseFilesInputSchema } from './documents-api.ts';
import { MSG } from './messages.ts';

describe('documentTypeFor (requirements §5)', () => {
  it.each([
    ['document', ['pdf', 'doc', 'docx', 'txt', 'rtf']],
    ['presentation', ['ppt', 'pptx', 'key']],
    ['spreadsheet', ['xls', 'xlsx', 'csv']],
    ['video', ['mp4', 'mov', 'avi', 'wmv']],
    ['audio', ['mp3', 'wav', 'ogg']],
    ['image', ['jpg', 'jpeg', 'png', 'gif', 'bmp']],
  ])('%s for %j', (type, extensions) => {
    for (const ext of extensions) {
      expect(documentTypeFor(`notes.${ext}`)).toBe(type);
      expect(documentTypeFor(`NOTES.${ext.toUpperCase()}`)).toBe(type);
    }
  });

  it.each(['archive.zip', 'README', 'photo.webp', 'paper.pdf.exe', '.pdf', 'trailing.', 'movie.mkv'])(
    '%s is other',
    (name) => {
      expect(documentTypeFor(name)).toBe('other');
    },
  );

  it('uses the last extension and ignores folders', () => {
    expect(fileExtension('week1/lecture.final.PPTX')).toBe('pptx');
    expect(documentTypeFor('C:\\Users\\ada\\slides.key')).toBe('presentation');
  });
});

describe('triggersOcrMessage (requirements §5)', () => {
  it.each(['a.jpg', 'a.JPEG', 'a.png', 'a.gif', 'a.bmp', 'scan.pdf'])('%s shows the OCR message', (name) => {
    expect(triggersOcrMessage(name)).toBe(true);
  });
  it.each(['a.docx', 'a.txt', 'a.webp', 'a.pptx', 'pdf'])('%s does not', (name) => {
    expect(triggersOcrMessage(name)).toBe(false);
  });
});

describe('isSyllabus (requirements §5)', () => {
  it.each(['Syllabus.pdf', 'BIO 101 syllabus', 'Course Outline - Fall.docx', 'course_outline.pdf', 'COURSE-OUTLINE'])(
    '%s is a syllabus',
    (name) => expect(isSyllabus(name)).toBe(true),
  );
  it.each(['Lecture 1.pdf', 'outline.pdf', 'course notes', 'syllabi'])('%s is not', (name) => {
    expect(isSyllabus(name)).toBe(false);
  });
});

describe('formatFileSize (requirements §9: Bytes, KB, MB, GB, base 1024, two decimals)', () => {
  it.each([
    [0, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [1100, '1.07 KB'],
    [1024 * 1024, '1 MB'],
    [5 * 1024 * 1024 + 123_456, '5.12 MB'],
    [1024 ** 3, '1 GB'],
    [3.456 * 1024 ** 3, '3.46 GB'],
    [2048 * 1024 ** 3, '2048 GB'],
  ])('%d bytes is %s', (bytes, text) => {
    expect(formatFileSize(bytes)).toBe(text);
  });
  it('treats invalid sizes as 0 Bytes', () => {
    expect(formatFileSize(Number.NaN)).toBe('0 Bytes');
    expect(formatFileSize(-5)).toBe('0 Bytes');
  });
});

describe('suggested questions (requirements §9)', () => {
  it('has five questions per kind and three for general, all distinct', () => {
    for (const kind of DOCUMENT_KINDS) {
      const set = SUGGESTED_QUESTIONS[kind];
      expect(set).toHaveLength(kind === 'general' ? 3 : 5);
      expect(new Set(set).size).toBe(set.length);
    }
  });

  it.each([
    ['CS 31 Syllabus.pdf', 'syllabus'],
    ['Course outline 2025.docx', 'syllabus'],
    ['Homework 3.pdf', 'assignment'],
    ['Project_Rubric.docx', 'assignment'],
    ['Lecture 04 - Enzymes.pdf', 'lecture'],
    ['week3.pptx', 'lecture'],
    ['Intro.key', 'lecture'],
    ['Smith et al research paper.pdf', 'research'],
    ['Journal_article.pdf', 'research'],
    ['photo.png', 'general'],
    ['notes-misc.txt', 'lecture'],
    ['budget.xlsx', 'general'],
  ])('%s is a %s document', (name, kind) => {
    expect(documentKind(name)).toBe(kind);
    expect(suggestedQuestions(name)).toBe(SUGGESTED_QUESTIONS[documentKind(name)]);
  });

  it('a syllabus wins over other keywords', () => {
    expect(documentKind('Lecture syllabus and assignments.pdf')).toBe('syllabus');
  });
});

describe('document contracts', () => {
  it('refuses a blank question with the spec text', () => {
    const r = askDocumentInputSchema.safeParse({ document_id: 'x', question: '   ' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe(MSG.courses.questionRequired);
  });
  it('accepts numeric Canvas ids as strings', () => {
    expect(fetchCourseFilesInputSchema.parse({ course_id: 42, file_id: 7 })).toMatchObject({
      course_id: '42',
      file_id: '7',
    });
  });
});
