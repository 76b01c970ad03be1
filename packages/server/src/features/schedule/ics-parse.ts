import ical, { type VEvent } from 'node-ical';

/** Reading an iCalendar text into busy occurrences of a window (runs in the import's worker thread). */

export type IcsFailure = 'not_ical' | 'too_many' | 'timeout';

export class IcsError extends Error {
  constructor(readonly reason: IcsFailure) {
    super(reason);
  }
}

export interface Occurrence {
  key: string;
  seriesKey: string;
  title: string;
  startMs: number;
  endMs: number;
}

export interface ParseLimits {
  fromMs: number;
  toMs: number;
  maxOccurrences: number;
  /** Date.now() past which parsing stops. */
  deadline: number;
}

const PERIOD_MS: Record<string, number> = {
  SECONDLY: 1000,
  MINUTELY: 60_000,
  HOURLY: 3_600_000,
  DAILY: 86_400_000,
  WEEKLY: 7 * 86_400_000,
  MONTHLY: 28 * 86_400_000,
  YEARLY: 365 * 86_400_000,
};

/**
 * An upper bound of the rule's occurrences in the window, read from its text before any expansion, so a rule like
 * FREQ=SECONDLY is refused without generating its millions of dates.
 */
export function estimateOccurrences(rrule: string, windowMs: number): number {
  const parts = new Map(
    (rrule.split(/\r?\n/).find((l) => l.startsWith('RRULE:')) ?? rrule)
      .replace(/^RRULE:/, '')
      .split(';')
      .map((p) => p.split('=') as [string, string]),
  );
  const period = PERIOD_MS[parts.get('FREQ') ?? ''] ?? 86_400_000;
  const interval = Math.max(1, Number(parts.get('INTERVAL') ?? 1) || 1);
  let n = Math.floor(windowMs / (period * interval)) + 1;
  for (const by of ['BYSECOND', 'BYMINUTE', 'BYHOUR', 'BYDAY', 'BYMONTHDAY', 'BYYEARDAY', 'BYWEEKNO']) {
    const list = parts.get(by);
    if (list) n *= list.split(',').length;
  }
  const count = Number(parts.get('COUNT'));
  return Number.isFinite(count) && count > 0 ? Math.min(n, count) : n;
}

const text = (v: unknown): string =>
  (typeof v === 'string' ? v : typeof (v as { val?: unknown })?.val === 'string' ? (v as { val: string }).val : '')
    .trim()
    .slice(0, 200);

function endOf(e: { start: Date; end?: Date; datetype?: string }): number {
  if (e.end) return e.end.getTime();
  return e.start.getTime() + (e.datetype === 'date' ? 86_400_000 : 0);
}

/** Busy occurrences of the calendar's events overlapping the window: RRULEs expanded, EXDATEs and RECURRENCE-IDs applied. */
export function parseIcs(body: string, limits: ParseLimits): Occurrence[] {
  if (!/^\s*BEGIN:VCALENDAR/i.test(body.replace(/^\uFEFF/, ''))) throw new IcsError('not_ical');
  let data: ReturnType<typeof ical.sync.parseICS>;
  try {
    data = ical.sync.parseICS(body);
  } catch {
    throw new IcsError('not_ical');
  }
  if (Date.now() > limits.deadline) throw new IcsError('timeout');
  const from = new Date(limits.fromMs);
  const to = new Date(limits.toMs);
  const out: Occurrence[] = [];
  const push = (o: Occurrence) => {
    if (o.endMs <= limits.fromMs || o.startMs >= limits.toMs || o.endMs <= o.startMs) return;
    if (out.length >= limits.maxOccurrences) throw new IcsError('too_many');
    out.push(o);
  };
  for (const component of Object.values(data)) {
    if (Date.now() > limits.deadline) throw new IcsError('timeout');
    if (!component || component.type !== 'VEVENT') continue;
    const event = component as VEvent;
    if (!(event.start instanceof Date) || Number.isNaN(event.start.getTime())) continue;
    if (event.transparency === 'TRANSPARENT' || event.status === 'CANCELLED') continue;
    const uid = text(event.uid) || `event-${event.start.toISOString()}`;
    if (event.rrule) {
      const estimate = estimateOccurrences(String(event.rrule), limits.toMs - limits.fromMs);
      // An estimate far past the cap is refused unexpanded; nearer ones are counted occurrence by occurrence.
      if (estimate > limits.maxOccurrences * 4) throw new IcsError('too_many');
      for (const inst of ical.expandRecurringEvent(event, { from, to, expandOngoing: true })) {
        if (inst.event.status === 'CANCELLED' || inst.event.transparency === 'TRANSPARENT') continue;
        const startMs = inst.start.getTime();
        push({
          key: `${uid}@${new Date(startMs).toISOString()}`,
          seriesKey: uid,
          title: text(inst.summary) || text(event.summary),
          startMs,
          endMs: inst.end.getTime(),
        });
      }
    } else if (!event.recurrenceid) {
      const startMs = event.start.getTime();
      push({
        key: `${uid}@${new Date(startMs).toISOString()}`,
        seriesKey: uid,
        title: text(event.summary),
        startMs,
        endMs: endOf(event),
      });
    }
  }
  return out;
}
