// The documents feature's public entry (its page is loaded by the router).
export { documentsLive } from './live-handlers.ts';
