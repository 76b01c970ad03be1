// A small HTTP client for the bench's students: each has its cookies and its own client address.

export interface Actor {
  name: string;
  email: string;
  id: string;
  /** Every cookie the log-in set (session, and any device cookie a newer server sets). */
  cookie: string;
  /** Sent as X-Forwarded-For (the bench's server trusts the proxy headers). */
  ip: string;
}

export interface Answer {
  status: number;
  ms: number;
  body: unknown;
  headers: Headers;
  text: string;
}

export interface CallOptions {
  body?: unknown;
  /** Raw body (multipart FormData, bytes) instead of JSON. */
  raw?: RequestInit['body'];
  headers?: Record<string, string>;
  signal?: AbortSignal;
  cookie?: string;
  ip?: string;
}

/** One request; a network failure or an abort answers status 0 instead of throwing. */
export async function call(
  base: string,
  who: Pick<Actor, 'cookie' | 'ip'> | null,
  method: string,
  url: string,
  opts: CallOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
  const cookie = opts.cookie ?? who?.cookie;
  if (cookie) headers.cookie = cookie;
  headers['x-forwarded-for'] = opts.ip ?? who?.ip ?? '127.0.0.1';
  let body: RequestInit['body'] = opts.raw;
  if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const started = performance.now();
  try {
    const res = await fetch(base + url, { method, headers, body, signal: opts.signal, redirect: 'manual' });
    const text = method === 'HEAD' ? '' : await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, ms: performance.now() - started, body: parsed, headers: res.headers, text };
  } catch (err) {
    return {
      status: 0,
      ms: performance.now() - started,
      body: null,
      headers: new Headers(),
      text: String((err as Error).message),
    };
  }
}

/** Signs in with the password; answers the Cookie header of every cookie set. */
export async function logIn(
  base: string,
  email: string,
  password: string,
  ip: string,
  cookie?: string,
): Promise<{ status: number; cookie: string }> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': ip,
      ...(cookie ? { cookie } : {}),
    },
    body: JSON.stringify({ email, password }),
  });
  await res.text();
  const set = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
  const jar = new Map<string, string>();
  for (const c of [...(cookie ? cookie.split('; ') : []), ...set]) jar.set(c.split('=')[0]!, c);
  return { status: res.status, cookie: [...jar.values()].join('; ') };
}

/** Counts answers by status: "201×20, 429×80". */
export function tally(statuses: number[]): string {
  const counts = new Map<number, number>();
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([s, n]) => (statuses.length === 1 ? String(s || 'no answer') : `${s || 'none'}×${n}`))
    .join(', ');
}

/** Runs `count` tasks, `concurrency` at a time. */
export async function pool<T>(count: number, concurrency: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}
