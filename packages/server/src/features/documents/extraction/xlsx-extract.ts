import type { ExtractedPage } from './extract-types.ts';
import { attr, decodeXml, openOfficeZip, partText, relationships, resolvePart, xmlTokens } from './office-xml.ts';

/**
 * The shared strings table: each `<si>`'s text runs joined (phonetic `<rPh>` runs left out). Grown one entry at a
 * time as read, never sized by the `count` the file declares.
 */
export function sharedStrings(xml: string): string[] {
  const out: string[] = [];
  let current = '';
  let inText = false;
  let phonetic = false;
  for (const t of xmlTokens(xml)) {
    if ('text' in t) {
      if (inText && !phonetic) current += decodeXml(t.text);
    } else if (t.tag === 'si') {
      if (t.close) out.push(current);
      else if (t.empty) out.push('');
      current = '';
    } else if (t.tag === 'rPh') {
      phonetic = !t.close && !t.empty;
    } else if (t.tag === 't') {
      inText = !t.close && !t.empty;
    }
  }
  return out;
}

/**
 * A worksheet's rows as tab-separated lines: shared strings (`t="s"`), inline strings, formula strings, booleans
 * and numbers as written; empty cells and empty rows left out.
 */
export function sheetText(xml: string, strings: string[]): string {
  const rows: string[] = [];
  let cells: string[] = [];
  let type = '';
  let value = '';
  let inValue = false;
  let phonetic = false;
  for (const t of xmlTokens(xml)) {
    if ('text' in t) {
      if (inValue && !phonetic) value += decodeXml(t.text);
      continue;
    }
    if (t.tag === 'row') {
      if (!t.close) cells = [];
      if (t.close || t.empty) {
        if (cells.length) rows.push(cells.join('\t'));
        cells = [];
      }
    } else if (t.tag === 'c') {
      if (!t.close) {
        type = attr(t.attrs, 't') ?? 'n';
        value = '';
      }
      if (t.close || t.empty) {
        const text = cellText(type, value, strings).trim();
        if (text) cells.push(text);
      }
    } else if (t.tag === 'v' || t.tag === 't') {
      inValue = !t.close && !t.empty;
    } else if (t.tag === 'rPh') {
      // a phonetic guide inside an inline string: not the cell's text
      phonetic = !t.close && !t.empty;
    }
  }
  return rows.join('\n');
}

function cellText(type: string, value: string, strings: string[]): string {
  if (type === 's') return strings[Number(value)] ?? '';
  if (type === 'b') return value === '1' ? 'TRUE' : value === '0' ? 'FALSE' : value;
  return value;
}

/** XLSX: one page per sheet in workbook order, labelled by the sheet's name; rows as tab-separated lines. */
export async function extractXlsx(bytes: Uint8Array): Promise<ExtractedPage[]> {
  const zip = await openOfficeZip(bytes);
  const rels = relationships(await partText(zip, 'xl/_rels/workbook.xml.rels'), 'xl/');
  const sheets: { name: string; part: string }[] = [];
  for (const t of xmlTokens(await partText(zip, 'xl/workbook.xml'))) {
    if (!('tag' in t) || t.close || t.tag !== 'sheet') continue;
    const part = rels.get(attr(t.attrs, 'r:id') ?? '');
    if (part) sheets.push({ name: attr(t.attrs, 'name') ?? `${sheets.length + 1}`, part });
  }
  const stringsPart = [...rels.values()].find((p) => p.endsWith('/sharedStrings.xml')) ?? 'xl/sharedStrings.xml';
  const strings = sharedStrings(await partText(zip, resolvePart('', stringsPart)));
  const pages: ExtractedPage[] = [];
  for (const [i, sheet] of sheets.entries()) {
    const text = sheetText(await partText(zip, sheet.part), strings);
    if (text) pages.push({ page: i + 1, unit: 'sheet', label: `sheet ${sheet.name}`, text, method: 'text' });
  }
  return pages;
}
