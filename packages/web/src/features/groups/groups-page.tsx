import { useEffect, useState } from 'react';
import { Box, Button, Center, Paper, ScrollArea, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MessagesSquare, Plus } from 'lucide-react';
import { useSearchParams } from 'react-router';
import type { GroupKind } from '@studybuddy/shared/groups';
import { LIMITS } from '@studybuddy/shared/limits';
import { MSG } from '@studybuddy/shared/messages';
import { useRealtimeEvent } from '../../lib/realtime.ts';
import { LoadingWrapper } from '../../ui/loading-wrapper.tsx';
import { useSession } from '../auth/index.ts';
import { CreateGroupModal } from './create-group-modal.tsx';
import { GroupChat } from './group-chat.tsx';
import { GroupList } from './group-list.tsx';
import { groupKeys, groupsApi } from './groups-api.ts';

/**
 * /groups (spec §2 Groups): Groups / Hot Groups toggle, the list, the chat and its modals.
 * `?groupIdToOpen=ID` opens that (hot) group when the user is a member of it.
 */
export default function GroupsPage() {
  const client = useQueryClient();
  const session = useSession();
  const isMobile = useMediaQuery(`(max-width: ${LIMITS.mobileBreakpointPx}px)`);
  const [params, setParams] = useSearchParams();
  const kind: GroupKind = params.get('tab') === 'hot' ? 'hot' : 'group';
  const selectedId = params.get('group');
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
  const showList = !isMobile || !selectedId;
  const showChat = !isMobile || !!selectedId;
  // The viewport below the shell's header, less the page padding.
  const height = 'calc(100dvh - var(--app-shell-header-offset, 0rem) - 2 * var(--mantine-spacing-md))';

  return (
    <Box display="flex" h={height} mih={420} style={{ gap: 'var(--mantine-spacing-md)' }}>
      {showList && (
        <Paper
          withBorder
          radius="lg"
          p="sm"
          w={isMobile ? '100%' : 320}
          style={{ display: 'flex', flexDirection: 'column', flexShrink: 0 }}
        >
          <Title order={1} size="h3" px="xs" pb="sm">
            {MSG.groups.title}
          </Title>
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
          <ScrollArea style={{ flex: 1 }} type="auto">
            <LoadingWrapper loading={list.isPending} error={list.error} message={MSG.loading.loading}>
              <GroupList
                groups={list.data?.groups ?? []}
                selectedId={selectedId}
                onSelect={(id) => show({ group: id })}
                empty={kind === 'hot' ? MSG.groups.emptyHotGroups : MSG.groups.emptyGroups}
              />
            </LoadingWrapper>
          </ScrollArea>
        </Paper>
      )}
      {showChat && (
        <Paper withBorder radius="lg" style={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
          {selectedId && me ? (
            <GroupChat
              key={selectedId}
              groupId={selectedId}
              me={me}
              onBack={() => show({ group: null })}
              onLeft={() => show({ group: null }, true)}
            />
          ) : (
            <Center h="100%" p="xl">
              <Stack align="center" gap="sm">
                <MessagesSquare size={40} aria-hidden color="var(--mantine-color-indigo-6)" />
                <Text fw={600}>{MSG.groups.select}</Text>
              </Stack>
            </Center>
          )}
        </Paper>
      )}
      <CreateGroupModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(g) => {
          setCreating(false);
          show({ tab: 'group', group: g.id });
        }}
      />
    </Box>
  );
}
