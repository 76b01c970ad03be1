// The auth feature's public entry: the signed-in session every other feature reads (pages load by the router).
export { announceSessionChange, SESSION_KEY, useRefreshSession, useSession, useSessionSync } from './use-session.ts';
export type { LoginState } from './use-redirect-after.ts';
