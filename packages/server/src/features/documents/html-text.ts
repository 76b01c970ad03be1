const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * Script, style and noscript elements removed, each replaced by a space. A linear scan: once an element has no
 * closing tag after some point, no later opening tag of it can have one either, so the search for it ends there
 * (the regex `/<(script|style|noscript)[\s\S]*?<\/\1>/gi` searched to the end again from every opening tag).
 */
function dropRawElements(html: string): string {
  const open = /<(script|style|noscript)/gi;
  const unclosed = new Set<string>();
  let out = '';
  let copied = 0;
  for (let m = open.exec(html); m && unclosed.size < 3; m = open.exec(html)) {
    const name = m[1]!.toLowerCase();
    if (unclosed.has(name)) continue;
    const close = new RegExp(`</${name}>`, 'gi');
    close.lastIndex = open.lastIndex;
    const end = close.exec(html);
    if (!end) {
      unclosed.add(name);
      continue;
    }
    out += `${html.slice(copied, m.index)} `;
    copied = open.lastIndex = end.index + end[0].length;
  }
  return out + html.slice(copied);
}

/**
 * Readable text of an HTML fragment (LMS pages and assignment descriptions): blocks become lines. Linear in
 * the input: a tag ends at the next `<` or `>` (`[^<>]`), so a run of `<` without `>` is not rescanned from
 * each of them.
 */
export function htmlToText(html: string): string {
  return (
    dropRawElements(html)
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(/<\/(?:p|div|li|h[1-6]|tr|section|article|blockquote|pre)>/gi, '\n\n')
      .replace(/<li[^<>]*>/gi, '- ')
      .replace(/<[^<>]+>/g, ' ')
      .replace(/&(#x?[0-9a-f]+|\w+);/gi, (m, code: string) => {
        if (code.startsWith('#')) {
          const n = code[1]?.toLowerCase() === 'x' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
          return Number.isFinite(n) && n > 0 && n < 0x110000 ? String.fromCodePoint(n) : ' ';
        }
        return ENTITIES[code.toLowerCase()] ?? m;
      })
      .replace(/[ \t]+/g, ' ')
      // After the line above no two blanks are adjacent, so one optional space on each side is all there is.
      .replace(/ ?\n ?/g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  );
}

/**
 * Whether a text holds markup: a `<` followed by a letter, with a `>` somewhere after it (what
 * `/<[a-z][\s\S]*>/i` tested, in one pass instead of a scan to the end from every `<`).
 */
export function looksLikeHtml(text: string): boolean {
  const tag = /<[a-z]/i.exec(text);
  return !!tag && text.lastIndexOf('>') > tag.index + 1;
}
