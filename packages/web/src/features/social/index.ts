// The social feature's public entry (its pages are loaded by the router).
export { socialLive } from './live-handlers.ts';
export { NotificationBadge } from './notification-badge.tsx';
