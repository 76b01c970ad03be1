/** Canvas pagination (lib/api.rb Api.paginate): per_page clamped, numbered or bookmark pages, the Link header. */

export const DEFAULT_PER_PAGE = 10;

export interface PageResult<T> {
  items: T[];
  link: string;
}

export class InvalidPageError extends Error {}

function clampPerPage(raw: string | null, max: number): number {
  const n = Number.parseInt(raw ?? '', 10);
  if (!Number.isFinite(n) || n < 1) return raw === null ? DEFAULT_PER_PAGE : 1;
  return Math.min(n, max);
}

function linkFor(url: URL, origin: string, page: string, perPage: number): string {
  const params = new URLSearchParams();
  for (const [k, v] of url.searchParams) {
    if (!['page', 'per_page', 'access_token', 'api_key'].includes(k)) params.append(k, v);
  }
  const rest = params.toString();
  return `${origin}${url.pathname}?${rest ? rest + '&' : ''}page=${page}&per_page=${perPage}`;
}

/**
 * One page of `all`. Numbered collections link current, next, prev, first, last (in that order, joined by ","),
 * a page past the end is []. Bookmark collections (`bookmark: true`) have opaque pages and no `last`.
 */
export function paginate<T>(
  all: T[],
  url: URL,
  origin: string,
  opts: { maxPerPage: number; bookmark?: boolean },
): PageResult<T> {
  const perPage = clampPerPage(url.searchParams.get('per_page'), opts.maxPerPage);
  const rawPage = url.searchParams.get('page');
  let index = 0;
  if (opts.bookmark) {
    if (rawPage && rawPage !== 'first') {
      const m = /^bookmark:(.+)$/.exec(rawPage);
      const decoded = m
        ? Number(
            Buffer.from(m[1]!, 'base64url')
              .toString('utf8')
              .replace(/^\["?|"?\]$/g, ''),
          )
        : NaN;
      if (!Number.isInteger(decoded) || decoded < 0) throw new InvalidPageError('invalid bookmark');
      index = decoded;
    }
  } else {
    const n = rawPage === null ? 1 : Number.parseInt(rawPage, 10);
    index = ((Number.isFinite(n) && n > 0 ? n : 1) - 1) * perPage;
  }
  const items = all.slice(index, index + perPage);
  const pageName = (start: number) =>
    opts.bookmark
      ? start === 0
        ? 'first'
        : `bookmark:${Buffer.from(JSON.stringify([start])).toString('base64url')}`
      : String(Math.floor(start / perPage) + 1);
  const links: [string, string][] = [['current', pageName(index)]];
  if (index + perPage < all.length) links.push(['next', pageName(index + perPage)]);
  if (index > 0) links.push(['prev', pageName(Math.max(0, index - perPage))]);
  links.push(['first', pageName(0)]);
  if (!opts.bookmark) links.push(['last', String(Math.max(1, Math.ceil(all.length / perPage)))]);
  const link = links.map(([rel, page]) => `<${linkFor(url, origin, page, perPage)}>; rel="${rel}"`).join(',');
  return { items, link };
}
