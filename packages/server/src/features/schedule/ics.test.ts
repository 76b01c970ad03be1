import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { fetchIcs, IcsFetchError, isPublicAddress, type FetchDeps, type HttpAnswer } from './ics-fetch.ts';
import { estimateOccurrences, IcsError, parseIcs } from './ics-parse.ts';
import { createIcsThreads } from './ics-thread.ts';

const FROM = Date.UTC(2026, 10, 1);
const TO = Date.UTC(2026, 10, 29);
const limits = (over: Partial<Parameters<typeof parseIcs>[1]> = {}) => ({
  fromMs: FROM,
  toMs: TO,
  maxOccurrences: 5000,
  deadline: Date.now() + 5000,
  ...over,
});

const calendar = (...events: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...events, 'END:VCALENDAR'].join('\r\n');

const LECTURE = [
  'BEGIN:VEVENT',
  'UID:lecture-1',
  'DTSTAMP:20261101T000000Z',
  'DTSTART;TZID=Europe/Berlin:20261102T100000',
  'DTEND;TZID=Europe/Berlin:20261102T113000',
  'RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20261231T000000Z',
  'EXDATE;TZID=Europe/Berlin:20261104T100000',
  'SUMMARY:Linear algebra',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:lecture-1',
  'DTSTAMP:20261101T000000Z',
  'RECURRENCE-ID;TZID=Europe/Berlin:20261109T100000',
  'DTSTART;TZID=Europe/Berlin:20261109T140000',
  'DTEND;TZID=Europe/Berlin:20261109T150000',
  'SUMMARY:Linear algebra (moved)',
  'END:VEVENT',
].join('\r\n');

describe('.ics parsing', () => {
  it('expands an RRULE into the window with its EXDATE left out and its RECURRENCE-ID moved', () => {
    const got = parseIcs(calendar(LECTURE), limits());
    expect(got.map((o) => [new Date(o.startMs).toISOString(), new Date(o.endMs).toISOString(), o.title])).toEqual([
      ['2026-11-02T09:00:00.000Z', '2026-11-02T10:30:00.000Z', 'Linear algebra'],
      // 4 Nov is an EXDATE; 9 Nov moved to 14:00
      ['2026-11-09T13:00:00.000Z', '2026-11-09T14:00:00.000Z', 'Linear algebra (moved)'],
      ['2026-11-11T09:00:00.000Z', '2026-11-11T10:30:00.000Z', 'Linear algebra'],
      ['2026-11-16T09:00:00.000Z', '2026-11-16T10:30:00.000Z', 'Linear algebra'],
      ['2026-11-18T09:00:00.000Z', '2026-11-18T10:30:00.000Z', 'Linear algebra'],
      ['2026-11-23T09:00:00.000Z', '2026-11-23T10:30:00.000Z', 'Linear algebra'],
      ['2026-11-25T09:00:00.000Z', '2026-11-25T10:30:00.000Z', 'Linear algebra'],
    ]);
    expect(new Set(got.map((o) => o.seriesKey))).toEqual(new Set(['lecture-1']));
    expect(new Set(got.map((o) => o.key)).size).toBe(got.length);
  });

  it('refuses text that is not iCalendar', () => {
    for (const body of ['hello world', '<html><body>Log in</body></html>', '']) {
      expect(() => parseIcs(body, limits())).toThrow(IcsError);
    }
  });

  it('refuses a calendar past 5,000 occurrences in the window, counted or estimated before expanding', () => {
    const many = Array.from({ length: 5001 }, (_, i) =>
      [
        'BEGIN:VEVENT',
        `UID:e${i}`,
        'DTSTAMP:20261101T000000Z',
        `DTSTART:202611${String(2 + (i % 20)).padStart(2, '0')}T100000Z`,
        `DTEND:202611${String(2 + (i % 20)).padStart(2, '0')}T103000Z`,
        'SUMMARY:x',
        'END:VEVENT',
      ].join('\r\n'),
    );
    expect(() => parseIcs(calendar(...many), limits())).toThrow(new IcsError('too_many'));
    expect(parseIcs(calendar(...many.slice(0, 5000)), limits())).toHaveLength(5000);
    const secondly = [
      'BEGIN:VEVENT',
      'UID:s',
      'DTSTAMP:20261101T000000Z',
      'DTSTART:20261102T100000Z',
      'DTEND:20261102T100001Z',
      'RRULE:FREQ=SECONDLY',
      'SUMMARY:s',
      'END:VEVENT',
    ].join('\r\n');
    const started = Date.now();
    expect(() => parseIcs(calendar(secondly), limits())).toThrow(new IcsError('too_many'));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(estimateOccurrences('RRULE:FREQ=WEEKLY;BYDAY=MO,WE', 28 * 86_400_000)).toBe(10);
  });

  it('ends a parse in its thread at the deadline', async () => {
    const minutely = [
      'BEGIN:VEVENT',
      'UID:m',
      'DTSTAMP:20261101T000000Z',
      'DTSTART:19700101T000000Z',
      'DTEND:19700101T000030Z',
      'RRULE:FREQ=MINUTELY;INTERVAL=15',
      'SUMMARY:m',
      'END:VEVENT',
    ].join('\r\n');
    const started = Date.now();
    await expect(createIcsThreads().parse(calendar(minutely), limits({ deadline: Date.now() + 300 }))).rejects.toThrow(
      new IcsError('timeout'),
    );
    expect(Date.now() - started).toBeLessThan(5000);
    await expect(createIcsThreads().parse(calendar(LECTURE), limits())).resolves.toHaveLength(7);
  });
});

/** A resolver and transport of our own: names map to addresses, addresses to answers. */
function fakeNet(names: Record<string, string>, answers: Record<string, (url: URL) => Partial<HttpAnswer>>) {
  const asked: string[] = [];
  const deps: FetchDeps = {
    async resolve(host) {
      const address = names[host];
      if (!address) throw new Error('ENOTFOUND');
      return [{ address, family: address.includes(':') ? 6 : 4 }];
    },
    async get(url, to) {
      asked.push(`${to.address} ${url.href}`);
      const a = answers[url.href]?.(url) ?? { status: 404 };
      return { status: 200, body: Readable.from([]), close() {}, ...a };
    },
  };
  return { deps, asked };
}

describe('.ics addresses (SSRF)', () => {
  const fetchLimits = () => ({ maxBytes: 2 * 1024 * 1024, deadline: Date.now() + 5000 });
  const reason = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (err) {
      return err instanceof IcsFetchError ? err.reason : String(err);
    }
    return 'fetched';
  };

  it('refuses loopback, private, link-local, unique-local and mapped addresses, literal or resolved', async () => {
    const { deps, asked } = fakeNet(
      { 'localhost.example': '127.0.0.1', 'intranet.example': '10.1.2.3', 'v6.example': 'fd00::5' },
      {},
    );
    for (const url of [
      'https://127.0.0.1/cal.ics',
      'https://10.0.0.8/cal.ics',
      'https://172.16.5.4/cal.ics',
      'https://192.168.1.1/cal.ics',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/cal.ics',
      'https://[fe80::1]/cal.ics',
      'https://[fd12:3456::1]/cal.ics',
      'https://[::ffff:127.0.0.1]/cal.ics',
      'https://[::ffff:10.0.0.1]/cal.ics',
      'https://0.0.0.0/cal.ics',
      'https://localhost.example/cal.ics',
      'https://intranet.example/cal.ics',
      'https://v6.example/cal.ics',
    ]) {
      expect([url, await reason(fetchIcs(url, fetchLimits(), deps))]).toEqual([url, 'private']);
    }
    expect(asked).toEqual([]);
    expect(isPublicAddress('93.184.216.34')).toBe(true);
    expect(isPublicAddress('2606:4700::1111')).toBe(true);
  });

  it('refuses http and addresses that are not URLs', async () => {
    const { deps } = fakeNet({}, {});
    expect(await reason(fetchIcs('http://example.org/cal.ics', fetchLimits(), deps))).toBe('not_https');
    expect(await reason(fetchIcs('file:///etc/passwd', fetchLimits(), deps))).toBe('not_https');
    expect(await reason(fetchIcs('not a url', fetchLimits(), deps))).toBe('bad_url');
  });

  it('checks every redirect hop again and refuses one to a private address', async () => {
    const { deps, asked } = fakeNet(
      { 'uni.example': '93.184.216.34', 'evil.example': '93.184.216.35', 'inside.example': '192.168.0.10' },
      {
        'https://uni.example/timetable.ics': () => ({ status: 302, location: 'https://evil.example/next' }),
        'https://evil.example/next': () => ({ status: 301, location: 'https://inside.example/admin.ics' }),
        'https://evil.example/loopback': () => ({ status: 307, location: 'https://[::1]/x' }),
      },
    );
    expect(await reason(fetchIcs('https://uni.example/timetable.ics', fetchLimits(), deps))).toBe('private');
    expect(asked).toEqual([
      '93.184.216.34 https://uni.example/timetable.ics',
      '93.184.216.35 https://evil.example/next',
    ]);
    expect(await reason(fetchIcs('https://evil.example/loopback', fetchLimits(), deps))).toBe('private');
  });

  it('reads a public calendar and stops a body past 2 MB', async () => {
    const big = Buffer.alloc(1024 * 1024, 'a');
    const { deps } = fakeNet(
      { 'uni.example': '93.184.216.34' },
      {
        'https://uni.example/ok.ics': () => ({ body: Readable.from([Buffer.from(calendar(LECTURE))]) }),
        'https://uni.example/big.ics': () => ({ body: Readable.from([big, big, big]) }),
        'https://uni.example/declared.ics': () => ({ contentLength: 3 * 1024 * 1024 }),
        'https://uni.example/loop.ics': () => ({ status: 302, location: '/loop.ics' }),
      },
    );
    expect(await fetchIcs('https://uni.example/ok.ics', fetchLimits(), deps)).toContain('Linear algebra');
    expect(await reason(fetchIcs('https://uni.example/big.ics', fetchLimits(), deps))).toBe('too_large');
    expect(await reason(fetchIcs('https://uni.example/declared.ics', fetchLimits(), deps))).toBe('too_large');
    expect(await reason(fetchIcs('https://uni.example/loop.ics', fetchLimits(), deps))).toBe('redirects');
    expect(await reason(fetchIcs('https://uni.example/missing.ics', fetchLimits(), deps))).toBe('status');
  });

  it('gives up after the deadline', async () => {
    const deps: FetchDeps = {
      resolve: async () => [{ address: '93.184.216.34', family: 4 }],
      get: (_url, _to, signal) =>
        new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))),
    };
    expect(
      await reason(fetchIcs('https://slow.example/cal.ics', { maxBytes: 100, deadline: Date.now() + 200 }, deps)),
    ).toBe('timeout');
  });
});
