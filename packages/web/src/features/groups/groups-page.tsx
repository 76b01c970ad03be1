import { useEffect, useState } from 'react';
import { Button, SegmentedControl } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MessagesSquare, Plus } from 'lucide-react';
import { useSearchParams } from 'react-router';
import type { GroupKind } from '@studybuddy/shared/groups';
import { MSG } from '@studybuddy/shared/messages';
import { MESSAGE_PARAM } from '@studybuddy/shared/search';
import { useRealtimeEvent } from '../../lib/realtime.ts';
import { ListPaneLayout, PanePlaceholder } from '../../ui/list-pane-layout.tsx';
import { LoadingWrapper } from '../../ui/loading-wrapper.tsx';
import { useSession } from '../auth/index.ts';
import { CreateGroupModal } from './create-group-modal.tsx';
import { GroupChat } from './group-chat.tsx';
import { GroupInvitations } from './group-invitations.tsx';
import { GroupList } from './group-list.tsx';
import { groupKeys, groupsApi } from './groups-api.ts';

/**
 * /groups (requirements §2 Groups): Groups / Hot Groups toggle, the list, the chat and its modals.
 * `?groupIdToOpen=ID` opens that (hot) group when the user is a member of it.
 */
export default function GroupsPage() {
  const client = useQueryClient();
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const kind: GroupKind = params.get('tab') === 'hot' ? 'hot' : 'group';
  const selectedId = params.get('group');
  const focusCursor = Number(params.get(MESSAGE_PARAM)) || undefined;
  const toOpen = params.get('groupIdToOpen');
  const [creating, setCreating] = useState(false);

  const show = (next: { tab?: GroupKind; group?: string | null }, replace = false) => {
    const tab = next.tab ?? kind;
    const group = next.group === undefined ? selectedId : next.group;
    setParams({ ...(tab === 'hot' ? { tab } : {}), ...(group ? { group } : {}) }, { replace });
  };

  useEffect(() => {
    if (!toOpen) return;
    let live = true;
    groupsApi.detail(toOpen).then(
      (group) => {
        if (!live) return;
        client.setQueryData(groupKeys.detail(group.id), group);
        setParams({ ...(group.kind === 'hot' ? { tab: 'hot' } : {}), group: group.id }, { replace: true });
      },
      () => {
        // Not a member (or no such group): nothing to open.
        if (live) setParams(kind === 'hot' ? { tab: 'hot' } : {}, { replace: true });
      },
    );
    return () => {
      live = false;
    };
  }, [toOpen, client, setParams, kind]);

  // Left (or removed) in another tab: close the chat here too.
  useRealtimeEvent('group.changed', (e) => {
    if (e.groupId === selectedId && (e.change === 'left' || e.change === 'deleted')) show({ group: null }, true);
  });

  const list = useQuery({ queryKey: groupKeys.list(kind), queryFn: () => groupsApi.list(kind) });
  const me = session.data?.user
    ? { id: session.data.user.id, name: session.data.profile?.name || MSG.chat.anonymous }
    : null;

  return (
    <>
      <ListPaneLayout
        title={MSG.groups.title}
        controls={
          <>
            <SegmentedControl
              fullWidth
              aria-label={MSG.groups.title}
              value={kind}
              onChange={(v) => show({ tab: v as GroupKind, group: null })}
              data={[
                { value: 'group', label: MSG.groups.title },
                { value: 'hot', label: MSG.groups.hotGroups },
              ]}
              mb="sm"
            />
            {kind === 'group' && <GroupInvitations onJoined={(id) => show({ tab: 'group', group: id })} />}
            {kind === 'group' && (
              <Button
                leftSection={<Plus size={16} aria-hidden />}
                variant="light"
                mb="sm"
                onClick={() => setCreating(true)}
              >
                {MSG.groups.createGroup}
              </Button>
            )}
          </>
        }
        list={
          <LoadingWrapper loading={list.isPending} error={list.error} message={MSG.loading.loading}>
            <GroupList
              groups={list.data?.groups ?? []}
              selectedId={selectedId}
              onSelect={(id) => show({ group: id })}
              empty={kind === 'hot' ? MSG.groups.emptyHotGroups : MSG.groups.emptyGroups}
            />
          </LoadingWrapper>
        }
        pane={
          selectedId && me ? (
            <GroupChat
              key={selectedId}
              groupId={selectedId}
              focusCursor={focusCursor}
              me={me}
              onBack={() => show({ group: null })}
              onLeft={() => show({ group: null }, true)}
            />
          ) : null
        }
        placeholder={<PanePlaceholder icon={MessagesSquare} text={MSG.groups.select} />}
      />
      <CreateGroupModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(g) => {
          setCreating(false);
          show({ tab: 'group', group: g.id });
        }}
      />
    </>
  );
}
