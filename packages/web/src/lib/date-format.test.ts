import { afterEach, describe, expect, it, vi } from 'vitest';
import { daysFromToday, formatDate, formatDateTime, formatDay, formatTime, formatWhen } from './date-format.ts';

/** Intl separates a time from AM/PM by a narrow no-break space: compared here as a plain space. */
const plain = (text: string) => text.replace(/\s/g, ' ');

const BERLIN = { locale: 'de-DE', timeZone: 'Europe/Berlin' } as const;
const NEW_YORK = { locale: 'en-US', timeZone: 'America/New_York' } as const;
/** Tuesday 10 March 2026, 09:30 in Berlin (08:30 UTC), 04:30 in New York (daylight time since 8 March). */
const NOW = '2026-03-10T08:30:00Z';

describe('the date and time format', () => {
  afterEach(() => vi.useRealTimers());

  it("writes times in the locale's own way", () => {
    const at = '2026-03-10T13:05:00Z';
    expect(formatTime(at, BERLIN)).toBe('14:05');
    expect(plain(formatTime(at, NEW_YORK))).toBe('9:05 AM');
    expect(formatTime(at, { locale: 'en-GB', timeZone: 'UTC' })).toBe('13:05');
    expect(plain(formatDateTime(at, NEW_YORK))).toBe('Mar 10, 2026, 9:05 AM');
    expect(formatDateTime(at, BERLIN)).toBe('10.03.2026, 14:05');
  });

  it('says today, yesterday and tomorrow with the time, in the locale', () => {
    expect(formatWhen('2026-03-10T07:00:00Z', { ...BERLIN, now: NOW })).toBe('heute 08:00');
    expect(formatWhen('2026-03-10T07:00:00Z', { ...BERLIN, now: NOW, today: 'time' })).toBe('08:00');
    expect(formatWhen('2026-03-09T13:05:00Z', { ...BERLIN, now: NOW })).toBe('gestern 14:05');
    expect(plain(formatWhen('2026-03-09T18:05:00Z', { ...NEW_YORK, now: NOW }))).toBe('yesterday 2:05 PM');
    expect(plain(formatWhen('2026-03-11T03:59:00Z', { ...NEW_YORK, now: NOW }))).toBe('today 11:59 PM');
    expect(plain(formatWhen('2026-03-11T04:00:00Z', { ...NEW_YORK, now: NOW }))).toBe('tomorrow 12:00 AM');
    expect(formatWhen('2026-03-09T13:05:00Z', { locale: 'fr-FR', timeZone: 'Europe/Paris', now: NOW })).toBe(
      'hier 14:05',
    );
  });

  it("draws the day's boundary at midnight in the student's time zone, not the server's or UTC's", () => {
    // 23:30 UTC on the 9th: still the 9th in New York, already the 10th in Berlin; both read at NOW.
    const late = '2026-03-09T23:30:00Z';
    expect(daysFromToday(late, { timeZone: 'UTC', now: NOW })).toBe(-1);
    expect(daysFromToday(late, { timeZone: 'Europe/Berlin', now: NOW })).toBe(0);
    expect(daysFromToday(late, { timeZone: 'America/New_York', now: NOW })).toBe(-1);
    expect(daysFromToday(late, { timeZone: 'Asia/Tokyo', now: NOW })).toBe(0);
    // Last second of yesterday and first of today in Berlin (CET, UTC+1).
    expect(formatWhen('2026-03-09T22:59:59Z', { ...BERLIN, now: NOW })).toBe('gestern 23:59');
    expect(formatWhen('2026-03-09T23:00:00Z', { ...BERLIN, now: NOW })).toBe('heute 00:00');
    // The same moment seen just before and just after midnight.
    expect(formatWhen('2026-03-09T20:00:00Z', { ...BERLIN, now: '2026-03-09T22:59:59Z' })).toBe('heute 21:00');
    expect(formatWhen('2026-03-09T20:00:00Z', { ...BERLIN, now: '2026-03-09T23:00:00Z' })).toBe('gestern 21:00');
  });

  it('counts calendar days across a daylight-saving change (a 23-hour day)', () => {
    // New York moved its clocks forward on Sunday 8 March 2026.
    const now = '2026-03-09T04:30:00Z'; // Monday 00:30 EDT
    expect(plain(formatWhen('2026-03-08T05:30:00Z', { ...NEW_YORK, now }))).toBe('yesterday 12:30 AM');
    expect(daysFromToday('2026-03-07T05:30:00Z', { ...NEW_YORK, now })).toBe(-2);
  });

  it('names the weekday within six days, the date beyond, and the year only when it is not this one', () => {
    expect(formatWhen('2026-03-05T13:05:00Z', { ...BERLIN, now: NOW })).toBe('Do., 14:05');
    expect(plain(formatWhen('2026-03-16T13:05:00Z', { ...NEW_YORK, now: NOW }))).toBe('Mon 9:05 AM');
    expect(formatWhen('2026-02-01T13:05:00Z', { ...BERLIN, now: NOW })).toBe('1. Feb., 14:05');
    expect(plain(formatWhen('2026-12-24T20:00:00Z', { ...NEW_YORK, now: NOW }))).toBe('Dec 24, 3:00 PM');
    expect(formatWhen('2025-12-24T20:00:00Z', { ...BERLIN, now: NOW })).toBe('24. Dez. 2025, 21:00');
    expect(formatWhen('not a date', BERLIN)).toBe('');
  });

  it('writes a day without its time, relative when near', () => {
    expect(formatDate('2026-03-09T13:05:00Z', { ...BERLIN, now: NOW })).toBe('gestern');
    expect(formatDate('2026-03-10T13:05:00Z', { ...NEW_YORK, now: NOW })).toBe('today');
    expect(formatDate('2026-03-02T13:05:00Z', { ...BERLIN, now: NOW })).toBe('02.03.2026');
    expect(formatDate('2026-03-02T13:05:00Z', { ...NEW_YORK, now: NOW })).toBe('Mar 2, 2026');
  });

  it('keeps a picked calendar day on its day whatever the time zone', () => {
    expect(formatDay('2026-12-02', 'short', { locale: 'en-US' })).toBe('Dec 2');
    expect(formatDay('2026-12-02', 'short', { locale: 'de-DE' })).toBe('2. Dez.');
    expect(formatDay('2026-12-02', 'full', { locale: 'en-US' })).toBe('Wednesday, December 2, 2026');
    expect(formatDay('2026-12-02', 'full', { locale: 'de-DE' })).toBe('Mittwoch, 2. Dezember 2026');
    expect(formatDay('2026-12-02', 'day', { locale: 'en-US' })).toBe('2');
    expect(formatDay('2026-12-02', 'weekday', { locale: 'de-DE' })).toBe('Mi');
  });

  it("uses the browser's clock, locale and time zone when none is given", () => {
    vi.useFakeTimers({ now: new Date(NOW), toFake: ['Date'] });
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const yesterdayNoon = new Date(Date.now() - 86_400_000);
    expect(daysFromToday(yesterdayNoon)).toBe(-1);
    expect(formatWhen(yesterdayNoon)).toBe(formatWhen(yesterdayNoon, { timeZone: zone, now: NOW }));
    expect(formatTime(NOW)).toBe(new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(new Date(NOW)));
  });
});
