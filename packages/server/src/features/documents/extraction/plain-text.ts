import { MSG } from '@studybuddy/shared/messages';
import { ExtractionError } from './extract-types.ts';

/** Text files in UTF-8 (with or without BOM), else Latin-1. */
export function decodeText(bytes: Uint8Array): string {
  if (bytes.subarray(0, 4096).includes(0)) throw new ExtractionError('unreadable', MSG.courses.unreadableFile);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return new TextDecoder('latin1').decode(bytes);
  }
}
