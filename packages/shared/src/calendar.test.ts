import { describe, expect, it } from 'vitest';
import { calendarEventFor, googleExportInputSchema } from './calendar.ts';
import { MSG } from './messages.ts';

describe('calendarEventFor (requirements §3)', () => {
  it('starts 10 minutes before the due time, ends at it, with e-mail 1440 and popup 10 reminders', () => {
    expect(calendarEventFor('Essay 1', '2030-03-04T17:00:00Z')).toEqual({
      summary: 'Essay 1',
      description: 'Your assignment is due.',
      start: { dateTime: '2030-03-04T16:50:00.000Z' },
      end: { dateTime: '2030-03-04T17:00:00.000Z' },
      reminders: {
        useDefault: false,
        overrides: [
          { method: 'email', minutes: 1440 },
          { method: 'popup', minutes: 10 },
        ],
      },
    });
  });

  it('keeps the instant of a due date given with an offset and refuses a non-date', () => {
    expect(calendarEventFor('Quiz', '2030-01-01T00:05:00-08:00').start.dateTime).toBe('2030-01-01T07:55:00.000Z');
    expect(() => calendarEventFor('Quiz', 'soon')).toThrow(RangeError);
  });
});

describe('googleExportInputSchema', () => {
  it('needs a calendar and one to 100 item ids', () => {
    const issue = (v: unknown) => googleExportInputSchema.safeParse(v).error?.issues[0]?.message;
    expect(issue({ item_ids: ['a'] })).toBe(MSG.calendar.calendarRequired);
    expect(issue({ calendar_id: 'c', item_ids: [] })).toBe(MSG.calendar.noneSelected);
    expect(issue({ calendar_id: 'c' })).toBe(MSG.calendar.noneSelected);
    expect(issue({ calendar_id: 'c', item_ids: Array.from({ length: 101 }, (_, i) => `a${i}`) })).toBe(
      MSG.calendar.tooMany(100),
    );
    expect(googleExportInputSchema.parse({ calendar_id: ' c ', item_ids: ['a'] })).toEqual({
      calendar_id: 'c',
      item_ids: ['a'],
    });
  });
});
