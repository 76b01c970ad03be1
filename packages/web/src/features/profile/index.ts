// The profile feature's public entry (its page is loaded by the router).
export { profileLive } from './live-handlers.ts';
