import { Badge, VisuallyHidden } from '@mantine/core';
import { MSG } from '@studybuddy/shared/messages';
import { useSession } from '../auth/use-session.ts';
import { useChatChannel } from './use-chat-live.ts';
import { formatUnread, useFriendUnread, useUnreadCounts } from './use-unread.ts';

/**
 * The sidebar Friends badge: unread messages of all friends ('99+' above 99). The shell always shows it, so it
 * also holds the tab's real-time channel open.
 */
export function FriendsUnreadBadge() {
  const session = useSession();
  useChatChannel(session.data?.user?.id);
  const total = useUnreadCounts().data?.total ?? 0;
  if (total <= 0) return null;
  return (
    <Badge size="sm" variant="filled" color="red" data-testid="friends-unread-badge" data-count={total}>
      <span aria-hidden>{formatUnread(total)}</span>
      <VisuallyHidden>{MSG.chat.unreadBadge(total)}</VisuallyHidden>
    </Badge>
  );
}

/** A friend's unread count for the friends list ('99+' above 99); nothing when zero. */
export function FriendUnreadBadge({ friendId }: { friendId: string }) {
  const count = useFriendUnread(friendId);
  if (count <= 0) return null;
  return (
    <Badge size="sm" variant="filled" color="red" data-testid="friend-unread-badge" data-count={count}>
      <span aria-hidden>{formatUnread(count)}</span>
      <VisuallyHidden>{MSG.chat.unreadBadge(count)}</VisuallyHidden>
    </Badge>
  );
}
