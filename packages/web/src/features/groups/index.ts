// The groups feature's public entry (its page is loaded by the router).
export { groupsLive } from './live-handlers.ts';
export { StudyGroupFinder } from './study-group-finder.tsx';
