import { lookup } from 'node:dns/promises';
import { request } from 'node:https';
import { BlockList, isIP } from 'node:net';
import type { Readable } from 'node:stream';

/**
 * Fetching an .ics address without letting it reach inside our network (SSRF): https only, every name resolved here
 * and refused when any address is loopback, link-local, private, unique-local, mapped or otherwise special; the
 * connection goes to the address checked (no second lookup to rebind); redirects followed by hand, each hop checked
 * again; the body read to its cap.
 */

export type FetchFailure = 'bad_url' | 'not_https' | 'private' | 'too_large' | 'timeout' | 'status' | 'redirects';

export class IcsFetchError extends Error {
  constructor(
    readonly reason: FetchFailure,
    readonly detail = '',
  ) {
    super(`${reason}${detail ? `: ${detail}` : ''}`);
  }
}

// One list per family: a BlockList matches IPv4 addresses against IPv4-mapped IPv6 ranges too.
const blocked4 = new BlockList();
const blocked6 = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked4.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked6.addSubnet(net, bits, 'ipv6');
}

/** True for an address a calendar may be fetched from (public unicast). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (!family) return false;
  return family === 4 ? !blocked4.check(address, 'ipv4') : !blocked6.check(address, 'ipv6');
}

export interface Resolved {
  address: string;
  family: 4 | 6;
}

export interface HttpAnswer {
  status: number;
  location?: string;
  contentLength?: number;
  body: AsyncIterable<Uint8Array>;
  close(): void;
}

export interface FetchDeps {
  resolve(host: string): Promise<Resolved[]>;
  /** GET the url over a connection to `to` (the checked address). */
  get(url: URL, to: Resolved, signal: AbortSignal): Promise<HttpAnswer>;
}

const realDeps: FetchDeps = {
  async resolve(host) {
    const found = await lookup(host, { all: true, verbatim: true });
    return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  },
  get(url, to, signal) {
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'GET',
          signal,
          headers: { accept: 'text/calendar, */*;q=0.5', 'user-agent': 'StudyBuddy calendar import' },
          lookup: (_host, _opts, cb) => cb(null, to.address, to.family),
        },
        (res) => {
          const length = Number(res.headers['content-length']);
          resolve({
            status: res.statusCode ?? 0,
            location: res.headers.location,
            contentLength: Number.isFinite(length) ? length : undefined,
            body: res as Readable,
            close: () => res.destroy(),
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
  },
};

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

async function checkedAddress(url: URL, deps: FetchDeps): Promise<Resolved> {
  if (url.protocol !== 'https:') throw new IcsFetchError('not_https');
  if (url.username || url.password) throw new IcsFetchError('bad_url');
  const host = hostOf(url);
  const literal = isIP(host);
  let addresses: Resolved[];
  if (literal) {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await deps.resolve(host);
    } catch {
      throw new IcsFetchError('status', 'address not found');
    }
  }
  if (!addresses.length || addresses.some((a) => !isPublicAddress(a.address))) throw new IcsFetchError('private');
  return addresses[0]!;
}

export interface FetchLimits {
  maxBytes: number;
  deadline: number;
  maxRedirects?: number;
}

/** The calendar's text, or an IcsFetchError naming why not. */
export async function fetchIcs(address: string, limits: FetchLimits, deps: FetchDeps = realDeps): Promise<string> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new IcsFetchError('bad_url');
  }
  const signal = AbortSignal.timeout(Math.max(1, limits.deadline - Date.now()));
  try {
    for (let hop = 0; hop <= (limits.maxRedirects ?? 5); hop++) {
      const to = await checkedAddress(url, deps);
      const answer = await deps.get(url, to, signal);
      if ([301, 302, 303, 307, 308].includes(answer.status) && answer.location) {
        answer.close();
        try {
          url = new URL(answer.location, url);
        } catch {
          throw new IcsFetchError('bad_url');
        }
        continue;
      }
      if (answer.status !== 200) {
        answer.close();
        throw new IcsFetchError('status', `HTTP ${answer.status}`);
      }
      if (answer.contentLength !== undefined && answer.contentLength > limits.maxBytes) {
        answer.close();
        throw new IcsFetchError('too_large');
      }
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of answer.body) {
        size += chunk.byteLength;
        if (size > limits.maxBytes) {
          answer.close();
          throw new IcsFetchError('too_large');
        }
        chunks.push(chunk);
      }
      return Buffer.concat(chunks).toString('utf8');
    }
    throw new IcsFetchError('redirects');
  } catch (err) {
    if (err instanceof IcsFetchError) throw err;
    if (signal.aborted) throw new IcsFetchError('timeout');
    throw new IcsFetchError('status', (err as Error).message.slice(0, 100));
  }
}
