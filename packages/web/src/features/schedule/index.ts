// The schedule feature's public entry (its page is loaded by the router). Study sessions hang their
// "Create session from this slot" on FindATime's / FindATimeButton's slotAction.
export { FindATime } from './find-a-time.tsx';
export { FindATimeButton } from './find-a-time-button.tsx';
export type { FindATimeTarget } from './schedule-api.ts';
