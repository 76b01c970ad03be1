import { createHash } from 'node:crypto';
import ical, { ICalAlarmType, ICalEventStatus } from 'ical-generator';
import { calendarEventFor } from '@studybuddy/shared/calendar';
import { LIMITS } from '@studybuddy/shared/limits';
import { MSG } from '@studybuddy/shared/messages';
import { wallTimeIn } from '@studybuddy/shared/study-sessions';
import type { CalendarEntry } from '../../platform/registry.ts';
import type { DatedItem } from './export-items.ts';

/**
 * ical-generator writes a zoned event's time with the Date's local getters, so it gets a Date whose local reading is
 * the wall-clock time in the event's zone (a time string without an offset reads as local time).
 */
const wallClock = (instant: Date, timeZone: string) => new Date(`${wallTimeIn(instant, timeZone)}:00`);

/**
 * An iCalendar file with the §3 event for each item: start 10 minutes before the due time, end at it, an
 * e-mail alarm 1440 minutes and a display alarm 10 minutes before. UIDs are stable per user and item, so a
 * calendar app that imports a file twice, or polls the feed, updates events instead of duplicating them.
 */
export function buildIcs(
  items: DatedItem[],
  owner: { userId: string; email: string },
  entries: CalendarEntry[] = [],
): string {
  const userKey = createHash('sha256').update(`calendar-uid:${owner.userId}`).digest('hex').slice(0, 16);
  const cal = ical({
    name: MSG.calendar.calendarName,
    prodId: { company: 'StudyBuddy', product: 'Coursework', language: 'EN' },
  });
  for (const item of items) {
    const event = calendarEventFor(item.name, item.due_date);
    cal.createEvent({
      id: `${userKey}-${item.id}@studybuddy`,
      start: new Date(event.start.dateTime),
      end: new Date(event.end.dateTime),
      summary: event.summary,
      description: event.description,
      url: /^https?:\/\//i.test(item.html_url) ? item.html_url : null,
      alarms: [
        {
          type: ICalAlarmType.email,
          triggerBefore: LIMITS.calendarEmailReminderMinutes * 60,
          summary: event.summary,
          description: event.description,
          attendees: [{ email: owner.email }],
        },
        {
          type: ICalAlarmType.display,
          triggerBefore: LIMITS.calendarPopupReminderMinutes * 60,
          description: event.summary,
        },
      ],
    });
  }
  // Other features' events (study sessions): in their zone's wall-clock time, changed in place by SEQUENCE.
  for (const entry of entries) {
    cal.createEvent({
      id: entry.uid,
      start: wallClock(entry.start, entry.timeZone),
      end: wallClock(entry.end, entry.timeZone),
      timezone: entry.timeZone,
      summary: entry.summary,
      description: entry.description,
      location: entry.location,
      url: entry.url,
      sequence: entry.sequence,
      lastModified: entry.updatedAt,
      status: entry.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    });
  }
  return cal.toString();
}
