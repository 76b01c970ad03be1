import mammoth from 'mammoth';
import { MSG } from '@studybuddy/shared/messages';
import { sections } from './sections.ts';
import { ExtractionError, type ExtractedPage } from './extract-types.ts';
import { checkZip } from './zip-limits.ts';

export { extractPptx } from './pptx-extract.ts';
export { extractXlsx } from './xlsx-extract.ts';
export { extractRtf } from './rtf-extract.ts';

export async function extractDocx(bytes: Uint8Array): Promise<ExtractedPage[]> {
  await checkZip(bytes);
  try {
    const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
    return sections(value);
  } catch {
    throw new ExtractionError('unreadable', MSG.courses.unreadableFile);
  }
}
