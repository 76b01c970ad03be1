import type { TextUnit } from '@studybuddy/shared/documents-api';

/** The text of one page (or slide, sheet, section) of a document. */
export interface PageText {
  page: number;
  unit: TextUnit;
  label: string;
  text: string;
}
