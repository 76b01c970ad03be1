// The blocks feature's public entry: Block on a student's card, a chat header, a group's member list and the friends
// list; a blocked student's folded group messages; Profile → Blocked students; the read-only chat's notice.
export { blockedIdsIn, useBlockedIds, useBlockedList } from './blocks-api.ts';
export { BlockButton, BlockDialog, useUnblock, type BlockTarget } from './block-dialog.tsx';
export { BlockedChatNotice, BlockedStudents } from './blocked-students.tsx';
export { FoldedMessage } from './folded-message.tsx';
export { blocksLive } from './live-handlers.ts';
