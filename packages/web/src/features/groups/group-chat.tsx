import { useState, type ReactNode } from 'react';
import { ActionIcon, Group, Menu, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { EllipsisVertical, LogOut, UserPlus, Users } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import { STUDY_GROUPS_MSG } from '@studybuddy/shared/messages/study-groups';
import { LoadingWrapper } from '../../ui/loading-wrapper.tsx';
import { ConversationHeader, ConversationView } from '../conversations/index.ts';
import { MuteGroupButton } from '../push/index.ts';
import { FindATimeButton } from '../schedule/index.ts';
import { PlanFromSlot, PlanSessionButton } from '../study-sessions/index.ts';
import { AddMembersModal } from './add-members-modal.tsx';
import { groupKeys, groupsApi } from './groups-api.ts';
import { LeaveGroupModal } from './leave-group-modal.tsx';
import { MembersModal } from './members-modal.tsx';

interface Props {
  groupId: string;
  me: { id: string; name: string };
  onBack: () => void;
  onLeft: () => void;
  /** Opens the chat at this message (its cursor: a search result). */
  focusCursor?: number;
}

type Open = 'members' | 'add' | 'leave' | null;

/** A group's chat with its Group Members, Add Members and Leave actions. */
export function GroupChat({ groupId, me, onBack, onLeft, focusCursor }: Props) {
  const detail = useQuery({
    queryKey: groupKeys.detail(groupId),
    queryFn: () => groupsApi.detail(groupId),
    retry: false,
  });
  const [open, setOpen] = useState<Open>(null);

  if (!detail.data) {
    return <LoadingWrapper fill loading={!detail.error} error={detail.error} message={MSG.loading.loading} />;
  }
  const group = detail.data;
  const action = (label: string, icon: ReactNode, which: Open, color?: string) => (
    <Tooltip label={label}>
      <ActionIcon variant="subtle" color={color ?? 'gray'} size="lg" aria-label={label} onClick={() => setOpen(which)}>
        {icon}
      </ActionIcon>
    </Tooltip>
  );
  return (
    <>
      <ConversationView
        key={`${group.id}:${focusCursor ?? ''}`}
        conversation={{ kind: 'group', id: group.id }}
        focusCursor={focusCursor}
        me={me}
        showNames
        header={
          <ConversationHeader
            title={group.name}
            subtitle={MSG.groups.memberCount(group.memberCount)}
            onBack={onBack}
            backLabel={MSG.groups.back}
            actions={
              <Group gap={4} wrap="nowrap">
                <MuteGroupButton groupId={group.id} />
                <FindATimeButton
                  target={{ kind: 'group', id: group.id }}
                  slotAction={(slot, close) => (
                    <PlanFromSlot conversation={{ kind: 'group', id: group.id }} slot={slot} onOpen={close} />
                  )}
                />
                <PlanSessionButton conversation={{ kind: 'group', id: group.id }} name={group.name} />
                {/* Wide screens: every action as an icon. Phones: the secondary ones in a menu, so the name has room. */}
                <Group gap={4} wrap="nowrap" visibleFrom="sm">
                  {action(MSG.groups.members, <Users size={18} aria-hidden />, 'members')}
                  {action(MSG.groups.addMembers, <UserPlus size={18} aria-hidden />, 'add')}
                  {action(MSG.groups.leave, <LogOut size={18} aria-hidden />, 'leave', 'red')}
                </Group>
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      size="lg"
                      aria-label={STUDY_GROUPS_MSG.groupHeader.more}
                      hiddenFrom="sm"
                    >
                      <EllipsisVertical size={18} aria-hidden />
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item leftSection={<Users size={16} aria-hidden />} onClick={() => setOpen('members')}>
                      {MSG.groups.members}
                    </Menu.Item>
                    <Menu.Item leftSection={<UserPlus size={16} aria-hidden />} onClick={() => setOpen('add')}>
                      {MSG.groups.addMembers}
                    </Menu.Item>
                    <Menu.Item
                      color="red"
                      leftSection={<LogOut size={16} aria-hidden />}
                      onClick={() => setOpen('leave')}
                    >
                      {MSG.groups.leave}
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              </Group>
            }
          />
        }
      />
      <MembersModal group={group} me={me.id} opened={open === 'members'} onClose={() => setOpen(null)} />
      <AddMembersModal group={group} opened={open === 'add'} onClose={() => setOpen(null)} />
      <LeaveGroupModal
        groupId={group.id}
        opened={open === 'leave'}
        onClose={() => setOpen(null)}
        onLeft={() => {
          setOpen(null);
          onLeft();
        }}
      />
    </>
  );
}
