import type JSZip from 'jszip';
import type { ExtractedPage } from './extract-types.ts';
import { attr, decodeXml, openOfficeZip, partText, relationships, xmlTokens } from './office-xml.ts';

const SLIDE_FILE = /^ppt\/slides\/slide(\d{1,6})\.xml$/;

/** The slides' parts in deck order: presentation.xml's slide list through its relationships, else by file number. */
async function slideOrder(zip: JSZip): Promise<string[]> {
  const rels = relationships(await partText(zip, 'ppt/_rels/presentation.xml.rels'), 'ppt/');
  const listed: string[] = [];
  for (const t of xmlTokens(await partText(zip, 'ppt/presentation.xml'))) {
    if (!('tag' in t) || t.close || t.tag !== 'sldId') continue;
    const target = rels.get(attr(t.attrs, 'r:id') ?? '');
    if (target && zip.file(target) && !listed.includes(target)) listed.push(target);
  }
  if (listed.length) return listed;
  return Object.keys(zip.files)
    .map((name) => ({ name, n: Number(SLIDE_FILE.exec(name)?.[1]) }))
    .filter((s) => Number.isInteger(s.n))
    .sort((a, b) => a.n - b.n)
    .map((s) => s.name);
}

/** A slide's text: the runs (`<a:t>`) of each paragraph joined, one line per paragraph, `<a:br/>` a line break. */
export function slideText(xml: string): string {
  const lines: string[] = [];
  let line = '';
  let inText = false;
  for (const t of xmlTokens(xml)) {
    if ('text' in t) {
      if (inText) line += decodeXml(t.text);
    } else if (t.tag === 't') {
      inText = !t.close && !t.empty;
    } else if ((t.tag === 'p' && t.close) || (t.tag === 'br' && !t.close)) {
      if (line.trim()) lines.push(line.trim());
      line = '';
    }
  }
  if (line.trim()) lines.push(line.trim());
  return lines.join('\n');
}

/** PPTX: one page per slide, numbered as in the deck; slides without text are left out. */
export async function extractPptx(bytes: Uint8Array): Promise<ExtractedPage[]> {
  const zip = await openOfficeZip(bytes);
  const pages: ExtractedPage[] = [];
  const order = await slideOrder(zip);
  for (const [i, part] of order.entries()) {
    const text = slideText(await partText(zip, part));
    const n = i + 1;
    if (text) pages.push({ page: n, unit: 'slide', label: `slide ${n}`, text, method: 'text' });
  }
  return pages;
}
