import { useQuery } from '@tanstack/react-query';
import { unreadLabel } from '@studybuddy/shared/chat';
import { conversationsApi, conversationKeys } from './conversations-api.ts';

/**
 * Unread messages per friend and in total (requirements §2 Friends badge). Kept live by the real-time channel
 * (`unread.changed`), refetched after every reconnect and every 5 s while the socket cannot open.
 */
export function useUnreadCounts() {
  return useQuery({ queryKey: conversationKeys.unread, queryFn: conversationsApi.unread, staleTime: 60_000 });
}

/** Unread messages from one friend (0 when none). */
export function useFriendUnread(friendId: string): number {
  return useUnreadCounts().data?.byFriend[friendId] ?? 0;
}

/** Requirements §9: the badge shows 99+ above 99. */
export const formatUnread = unreadLabel;
