// The calendar feature's public entry: the slot the Coursework page hosts.
export { CalendarSlot, type CalendarParts } from './calendar-slot.tsx';
export type { ExportSelection } from './use-calendar-export.ts';
