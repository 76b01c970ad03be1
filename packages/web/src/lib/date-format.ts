/**
 * Every date and time the web app shows, in the browser's own locale and time zone (Intl), the same on every page;
 * relative where that helps: "yesterday 14:05", "tomorrow 9:00 AM", "Tue 14:05" within the week around today.
 *
 * Each function takes the moment as an ISO string, epoch milliseconds or a Date; `options` exist for the tests
 * (a locale, a time zone, a fixed clock) and are left out everywhere else.
 */

export type Moment = string | number | Date;

export interface DateFormatOptions {
  /** BCP 47 locale(s); the browser's by default. */
  locale?: string | readonly string[];
  /** IANA time zone; the browser's by default. */
  timeZone?: string;
  /** What "today" is measured from; the clock's now by default. */
  now?: Moment;
}

const formats = new Map<string, Intl.DateTimeFormat>();
const relatives = new Map<string, Intl.RelativeTimeFormat>();

const localeKey = (locale: DateFormatOptions['locale']) => (locale === undefined ? '' : String(locale));

/** One formatter per locale, zone and pattern (building one costs far more than using it: a chat has hundreds). */
function dateFormat(o: DateFormatOptions, pattern: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${localeKey(o.locale)}|${o.timeZone ?? ''}|${JSON.stringify(pattern)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(o.locale as string | string[] | undefined, { ...pattern, timeZone: o.timeZone });
    formats.set(key, format);
  }
  return format;
}

/** "yesterday", "today", "tomorrow" in the locale's words. */
function dayWord(o: DateFormatOptions, days: -1 | 0 | 1): string {
  const key = localeKey(o.locale);
  let format = relatives.get(key);
  if (!format) {
    format = new Intl.RelativeTimeFormat(o.locale as string | string[] | undefined, { numeric: 'auto' });
    relatives.set(key, format);
  }
  return format.format(days, 'day');
}

const toDate = (m: Moment): Date => (m instanceof Date ? m : new Date(m));

/** The locale's own short time ("08:00" in German, "8:00 AM" in American English), to combine with a date. */
function timeParts(o: DateFormatOptions): Intl.DateTimeFormatOptions {
  const { hour, hourCycle } = dateFormat(o, { timeStyle: 'short' }).resolvedOptions();
  return { hour: hour === '2-digit' ? '2-digit' : 'numeric', minute: '2-digit', ...(hourCycle ? { hourCycle } : {}) };
}

/** The calendar day a moment falls on in the time zone, as days since 1970-01-01. */
function dayNumber(date: Date, o: DateFormatOptions): number {
  // Counted in Latin digits of the Gregorian calendar whatever the locale writes.
  const parts = dateFormat(
    { locale: 'en-US', timeZone: o.timeZone },
    { year: 'numeric', month: 'numeric', day: 'numeric' },
  )
    .formatToParts(date)
    .reduce<Record<string, number>>(
      (acc, p) => (p.type === 'literal' ? acc : { ...acc, [p.type]: Number(p.value) }),
      {},
    );
  return Math.round(Date.UTC(parts.year!, parts.month! - 1, parts.day!) / 86_400_000);
}

/** Calendar days from today to the moment's day in the time zone: -1 yesterday, 0 today, 1 tomorrow. */
export function daysFromToday(moment: Moment, o: DateFormatOptions = {}): number {
  return dayNumber(toDate(moment), o) - dayNumber(toDate(o.now ?? Date.now()), o);
}

/** Only the time of day: "14:05", "2:05 PM". */
export function formatTime(moment: Moment, o: DateFormatOptions = {}): string {
  return dateFormat(o, { timeStyle: 'short' }).format(toDate(moment));
}

/**
 * A moment, as near as it needs: "today 14:05" (only "14:05" with `today: 'time'`, for a chat's messages), "yesterday
 * 14:05", "tomorrow 14:05", "Tue 14:05" within six days either side, "Dec 2, 14:05" this year, "Dec 2, 2025, 14:05".
 */
export function formatWhen(moment: Moment, o: DateFormatOptions & { today?: 'word' | 'time' } = {}): string {
  const date = toDate(moment);
  if (Number.isNaN(date.getTime())) return '';
  const days = daysFromToday(date, o);
  const time = formatTime(date, o);
  if (days === 0 && o.today === 'time') return time;
  if (days >= -1 && days <= 1) return `${dayWord(o, days as -1 | 0 | 1)} ${time}`;
  if (Math.abs(days) <= 6) return dateFormat(o, { weekday: 'short', ...timeParts(o) }).format(date);
  const sameYear = yearOf(date, o) === yearOf(toDate(o.now ?? Date.now()), o);
  return dateFormat(o, {
    month: 'short',
    day: 'numeric',
    ...(sameYear ? {} : { year: 'numeric' }),
    ...timeParts(o),
  }).format(date);
}

const yearOf = (date: Date, o: DateFormatOptions) =>
  dateFormat({ locale: 'en-US', timeZone: o.timeZone }, { year: 'numeric' }).format(date);

/** A day without its time: "today", "yesterday", "tomorrow", else "Dec 2, 2025". */
export function formatDate(moment: Moment, o: DateFormatOptions = {}): string {
  const date = toDate(moment);
  if (Number.isNaN(date.getTime())) return '';
  const days = daysFromToday(date, o);
  if (days >= -1 && days <= 1) return dayWord(o, days as -1 | 0 | 1);
  return dateFormat(o, { dateStyle: 'medium' }).format(date);
}

/** The exact moment, never relative: "Dec 2, 2025, 14:05" (audit logs, where a reader compares entries). */
export function formatDateTime(moment: Moment, o: DateFormatOptions = {}): string {
  return dateFormat(o, { dateStyle: 'medium', timeStyle: 'short' }).format(toDate(moment));
}

/**
 * A calendar day given as `YYYY-MM-DD` (a day the student picked; no time zone moves it): `short` "Dec 2", `full`
 * "Wednesday, December 2, 2026", `day` "2", `weekday` "Wed" (a calendar's column heads).
 */
export function formatDay(
  day: string,
  style: 'short' | 'full' | 'day' | 'weekday',
  o: Omit<DateFormatOptions, 'timeZone' | 'now'> = {},
): string {
  const [year, month, date] = day.split('-').map(Number);
  const noon = new Date(Date.UTC(year!, month! - 1, date!, 12));
  const pattern: Intl.DateTimeFormatOptions =
    style === 'short'
      ? { month: 'short', day: 'numeric' }
      : style === 'full'
        ? { dateStyle: 'full' }
        : style === 'day'
          ? { day: 'numeric' }
          : { weekday: 'short' };
  return dateFormat({ ...o, timeZone: 'UTC' }, pattern).format(noon);
}
