import { Badge, VisuallyHidden } from '@mantine/core';
import { MSG } from '@studybuddy/shared/messages';
import { formatUnread, useFriendUnread, useUnreadCounts } from './use-unread.ts';

/** An unread count ('99+' above 99); nothing when zero. */
export function UnreadBadge({ count, testId }: { count: number; testId?: string }) {
  if (count <= 0) return null;
  return (
    <Badge size="sm" variant="filled" color="red" data-testid={testId} data-count={count}>
      <span aria-hidden>{formatUnread(count)}</span>
      <VisuallyHidden>{MSG.chat.unreadBadge(count)}</VisuallyHidden>
    </Badge>
  );
}

/** The sidebar Friends badge: unread messages of all friends. */
export function FriendsUnreadBadge() {
  return <UnreadBadge count={useUnreadCounts().data?.total ?? 0} testId="friends-unread-badge" />;
}

/** A friend's unread count in the friends list. */
export function FriendUnreadBadge({ friendId }: { friendId: string }) {
  return <UnreadBadge count={useFriendUnread(friendId)} testId="friend-unread-badge" />;
}
