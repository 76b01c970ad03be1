import JSZip from 'jszip';
import { MSG } from '@studybuddy/shared/messages';
import { ExtractionError } from './extract-types.ts';
import { checkZip } from './zip-limits.ts';

const unreadable = () => new ExtractionError('unreadable', MSG.courses.unreadableFile);

/** An Office file's parts, opened after the ZIP-bomb checks; a ZIP we cannot open is unreadable. */
export async function openOfficeZip(bytes: Uint8Array): Promise<JSZip> {
  await checkZip(bytes);
  try {
    return await JSZip.loadAsync(bytes);
  } catch {
    throw unreadable();
  }
}

/** A part's XML text, or '' when the file has no such part. */
export async function partText(zip: JSZip, name: string): Promise<string> {
  const file = zip.file(name);
  if (!file) return '';
  try {
    return await file.async('string');
  } catch {
    throw unreadable();
  }
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function entity(whole: string, body: string): string {
  if (body[0] !== '#') return NAMED[body] ?? whole;
  const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
  return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
}

/** XML character data with its entities (&amp; &#233; &#x2014;) decoded. */
export const decodeXml = (s: string) => (s.includes('&') ? s.replace(/&(#?[a-zA-Z0-9]{1,8});/g, entity) : s);

/** One piece of an XML document: a tag (name without prefix, `close` for `</x>`, `empty` for `<x/>`) or text. */
export type XmlToken = { tag: string; close: boolean; empty: boolean; attrs: string } | { text: string };

/**
 * Tags and text of an XML document in order, in one linear pass (no regex that can backtrack): enough for the
 * flat structure of Office parts. Comments, processing instructions and CDATA-free markup only, as Office writes.
 */
export function* xmlTokens(xml: string): Generator<XmlToken> {
  let at = 0;
  while (at < xml.length) {
    const open = xml.indexOf('<', at);
    if (open < 0) {
      yield { text: xml.slice(at) };
      return;
    }
    if (open > at) yield { text: xml.slice(at, open) };
    const end = xml.indexOf('>', open);
    if (end < 0) return;
    at = end + 1;
    const first = xml[open + 1];
    if (first === '?' || first === '!') continue;
    const close = first === '/';
    const empty = xml[end - 1] === '/';
    const inner = xml.slice(open + (close ? 2 : 1), empty ? end - 1 : end);
    let nameEnd = 0;
    while (nameEnd < inner.length && !' \t\r\n'.includes(inner[nameEnd]!)) nameEnd++;
    const qualified = inner.slice(0, nameEnd);
    const colon = qualified.indexOf(':');
    yield { tag: colon < 0 ? qualified : qualified.slice(colon + 1), close, empty, attrs: inner.slice(nameEnd) };
  }
}

/** An attribute's decoded value in a tag's attribute text (`r:id` matches `r:id="…"` exactly). */
export function attr(attrs: string, name: string): string | undefined {
  const key = ` ${name}=`;
  let i = attrs.replace(/[\t\r\n]/g, ' ').indexOf(key);
  if (i < 0) return undefined;
  i += key.length;
  const quote = attrs[i];
  if (quote !== '"' && quote !== "'") return undefined;
  const end = attrs.indexOf(quote, i + 1);
  return end < 0 ? undefined : decodeXml(attrs.slice(i + 1, end));
}

/** A relationships part (`_rels/x.xml.rels`) as Id → target path resolved against `baseDir` (e.g. 'ppt/'). */
export function relationships(xml: string, baseDir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const t of xmlTokens(xml)) {
    if (!('tag' in t) || t.close || t.tag !== 'Relationship') continue;
    const id = attr(t.attrs, 'Id');
    const target = attr(t.attrs, 'Target');
    if (id && target) out.set(id, resolvePart(baseDir, target));
  }
  return out;
}

/** A relationship target as a path in the ZIP ('slides/slide1.xml' from 'ppt/' → 'ppt/slides/slide1.xml'). */
export function resolvePart(baseDir: string, target: string): string {
  const parts = (target.startsWith('/') ? target.slice(1) : baseDir + target).split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '..') out.pop();
    else if (p && p !== '.') out.push(p);
  }
  return out.join('/');
}
