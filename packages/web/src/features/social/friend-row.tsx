import { ActionIcon, Avatar, Group, Menu, NavLink } from '@mantine/core';
import { Ban, EllipsisVertical, UserMinus, UserRound } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import type { Friend } from '@studybuddy/shared/social';
import { FriendUnreadBadge } from '../conversations/index.ts';

interface Props {
  friend: Friend;
  active: boolean;
  onSelect: () => void;
  onViewProfile: () => void;
  onUnfriend: () => void;
  onBlock: () => void;
}

/** A friend in the list: opens the chat; its menu has View Profile, Unfriend and Block. */
export function FriendRow({ friend, active, onSelect, onViewProfile, onUnfriend, onBlock }: Props) {
  return (
    <Group gap={4} wrap="nowrap" component="li" data-testid="friend-row">
      <NavLink
        component="button"
        active={active}
        variant="filled"
        aria-current={active ? 'true' : undefined}
        label={friend.name}
        description={`${friend.major} · ${friend.year}`}
        leftSection={<Avatar src={friend.profilePicture} alt="" radius="xl" />}
        rightSection={<FriendUnreadBadge friendId={friend.uid} />}
        onClick={onSelect}
        style={{ borderRadius: 'var(--mantine-radius-md)', flex: 1, minWidth: 0 }}
      />
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={MSG.friends.options(friend.name)}>
            <EllipsisVertical size={18} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<UserRound size={16} aria-hidden />} onClick={onViewProfile}>
            {MSG.friends.viewProfile}
          </Menu.Item>
          <Menu.Item color="red" leftSection={<UserMinus size={16} aria-hidden />} onClick={onUnfriend}>
            {MSG.friends.unfriend}
          </Menu.Item>
          <Menu.Item color="red" leftSection={<Ban size={16} aria-hidden />} onClick={onBlock}>
            {MSG.block.action}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
