// The study sessions feature's public entry (its pages are loaded by the router).
export { studySessionsLive } from './live-handlers.ts';
export { SessionCard } from './session-card.tsx';
export { PlanFromSlot, PlanSessionButton, PlanSessionModal } from './plan-session.tsx';
export type { SessionPrefill } from './session-form.tsx';
