/**
 * Linear-time replacements for regular expressions that backtrack on hostile input: `/x+$/` and `/[ \t]+\n/`
 * rescan a long run of x at every position of it when something else follows, which takes quadratic time.
 */

/** The string without any of `chars` at its end (`trimTrailing(url, '/')` for `url.replace(/\/+$/, '')`). */
export function trimTrailing(s: string, chars: string): string {
  let end = s.length;
  while (end > 0 && chars.includes(s[end - 1]!)) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** Every line without its trailing spaces and tabs (for `text.replace(/[ \t]+\n/g, '\n')`, last line included). */
export function trimLineEnds(text: string): string {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) lines[i] = trimTrailing(lines[i]!, ' \t');
  return lines.join('\n');
}
