import mammoth from 'mammoth';
import { OfficeParser, type OfficeContentNode } from 'officeparser';
import { MSG } from '@studybuddy/shared/messages';
import { sections } from './sections.ts';
import { ExtractionError, type ExtractedPage } from './extract-types.ts';
import { checkZip } from './zip-limits.ts';

export async function extractDocx(bytes: Uint8Array): Promise<ExtractedPage[]> {
  await checkZip(bytes);
  try {
    const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
    return sections(value);
  } catch {
    throw new ExtractionError('unreadable', MSG.courses.unreadableFile);
  }
}

/** A node's text: its own when it has one, else its children's (cells by tabs, everything else by lines). */
function nodeText(node: OfficeContentNode): string {
  if (typeof node.text === 'string' && node.text) return node.text;
  const children = node.children ?? [];
  const sep = node.type === 'row' ? '\t' : '\n';
  return children
    .map(nodeText)
    .filter((t) => t.trim())
    .join(sep);
}

async function parseOffice(bytes: Uint8Array) {
  try {
    return await OfficeParser.parseOffice(Buffer.from(bytes), { outputErrorToConsole: false });
  } catch {
    throw new ExtractionError('unreadable', MSG.courses.unreadableFile);
  }
}

/** PPTX: one page per slide, numbered as in the deck. */
export async function extractPptx(bytes: Uint8Array): Promise<ExtractedPage[]> {
  await checkZip(bytes);
  const ast = await parseOffice(bytes);
  const slides = ast.content.filter((n) => n.type === 'slide');
  return slides
    .map((slide, i) => {
      const meta = slide.metadata as { slideNumber?: number } | undefined;
      const n = meta?.slideNumber ?? i + 1;
      return {
        page: n,
        unit: 'slide' as const,
        label: `slide ${n}`,
        text: nodeText(slide).trim(),
        method: 'text' as const,
      };
    })
    .filter((p) => p.text);
}

/** XLSX: one page per sheet, rows as tab-separated lines. */
export async function extractXlsx(bytes: Uint8Array): Promise<ExtractedPage[]> {
  await checkZip(bytes);
  const ast = await parseOffice(bytes);
  const sheets = ast.content.filter((n) => n.type === 'sheet');
  return sheets
    .map((sheet, i) => {
      const name = (sheet.metadata as { sheetName?: string } | undefined)?.sheetName ?? `${i + 1}`;
      return {
        page: i + 1,
        unit: 'sheet' as const,
        label: `sheet ${name}`,
        text: nodeText(sheet).trim(),
        method: 'text' as const,
      };
    })
    .filter((p) => p.text);
}

export async function extractRtf(bytes: Uint8Array): Promise<ExtractedPage[]> {
  const ast = await parseOffice(bytes);
  return sections(ast.toText());
}
