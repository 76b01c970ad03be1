import { SCHEDULE_LIMITS } from '@studybuddy/shared/schedule';

export const DAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
export const { cellsPerDay: CELLS_PER_DAY, cellsPerWeek: CELLS_PER_WEEK } = SCHEDULE_LIMITS;

/** "14:30" for the half hour of a day. */
export const halfHourLabel = (row: number) =>
  `${String(Math.floor(row / 2)).padStart(2, '0')}:${row % 2 ? '30' : '00'}`;

/** The browser's zone, or UTC when it names none. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export function timeZones(current: string): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (k: string) => string[] };
  const list = intl.supportedValuesOf?.('timeZone') ?? [];
  return list.includes(current) ? list : [current, ...list];
}
