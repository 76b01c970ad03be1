// The conversations feature's public entry: what friends and groups build their chats from.
export { ChatPane } from './chat-pane.tsx';
export { ConversationHeader } from './conversation-header.tsx';
export { ConversationView } from './conversation-view.tsx';
export { conversationKeys } from './conversations-api.ts';
export { conversationsLive } from './live-handlers.ts';
export { isOpen } from './message-cache.ts';
export { readStoredOutbox, type StoredOutboxEntry } from './outbox-storage.ts';
export { FriendsUnreadBadge, FriendUnreadBadge, UnreadBadge } from './unread-badge.tsx';
