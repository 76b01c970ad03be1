import { useState } from 'react';
import { Box, Button, Center, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, MessageCircle, MessageCircleOff, Search } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { LIMITS } from '@studybuddy/shared/limits';
import { MSG } from '@studybuddy/shared/messages';
import { MESSAGE_PARAM } from '@studybuddy/shared/search';
import type { Friend, FriendsList } from '@studybuddy/shared/social';
import { ListPaneLayout, PanePlaceholder } from '../../ui/list-pane-layout.tsx';
import { LoadingWrapper } from '../../ui/loading-wrapper.tsx';
import { toast } from '../../ui/toast.ts';
import { BlockDialog, useBlockedList, type BlockTarget } from '../blocks/index.ts';
import { ChatPane } from '../conversations/index.ts';
import { FriendRow } from './friend-row.tsx';
import { ProfileModal } from './profile-modal.tsx';
import { socialApi, socialKeys } from './social-api.ts';
import { usePollInterval } from './use-poll-interval.ts';

const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? name;

/**
 * The friends screen (/ and /friends): a searchable list on the left, the chat on the right. A student the viewer
 * blocked opens read-only (their history stays); any other chat that is not a friend's says it is closed.
 */
export default function FriendsPage() {
  const client = useQueryClient();
  const isMobile = useMediaQuery(`(max-width: ${LIMITS.mobileBreakpointPx}px)`);
  const [params, setParams] = useSearchParams();
  const selectedId = params.get('friend');
  const focusCursor = Number(params.get(MESSAGE_PARAM)) || undefined;
  const [filter, setFilter] = useState('');
  const [profileOf, setProfileOf] = useState<Friend | null>(null);
  const [blockOf, setBlockOf] = useState<BlockTarget | null>(null);

  const refetchInterval = usePollInterval();
  const friends = useQuery({
    queryKey: socialKeys.friends,
    queryFn: socialApi.friends,
    refetchInterval,
  });
  const all = friends.data?.friends ?? [];
  const shown = all.filter((f) => f.name.toLowerCase().includes(filter.trim().toLowerCase()));
  const blocked = useBlockedList();
  const blockedSelected = blocked.data?.blocked.find((b) => b.uid === selectedId);
  const selected = blockedSelected ? undefined : all.find((f) => f.uid === selectedId);
  // Known not to be a friend or a blocked student: unfriended, blocked by them, or never a friend.
  const closed = !!selectedId && !selected && !blockedSelected && friends.isSuccess && blocked.isSuccess;
  const select = (uid: string | null) => setParams(uid ? { friend: uid } : {}, { replace: !uid });

  const unfriend = useMutation({
    mutationFn: (f: Friend) => socialApi.unfriend(f.uid),
    onSuccess: (_d, f) => {
      toast.success(MSG.friends.unfriended(firstName(f.name)));
      client.setQueryData<FriendsList>(socialKeys.friends, (d) =>
        d ? { friends: d.friends.filter((x) => x.uid !== f.uid) } : d,
      );
      if (selectedId === f.uid) select(null);
      void client.invalidateQueries({ queryKey: socialKeys.matches });
    },
    onError: () => toast.error(MSG.friends.removeFailed),
    onSettled: () => client.invalidateQueries({ queryKey: socialKeys.friends }),
  });

  return (
    <>
      <ListPaneLayout
        title={MSG.friends.title}
        controls={
          <TextInput
            label={MSG.friends.search}
            placeholder="Type a name"
            leftSection={<Search size={16} aria-hidden />}
            value={filter}
            onChange={(e) => setFilter(e.currentTarget.value)}
            mb="sm"
            px="xs"
          />
        }
        list={
          <LoadingWrapper loading={friends.isPending} error={friends.error} message={MSG.loading.loading}>
            {shown.length ? (
              <Stack gap={2} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={MSG.friends.title}>
                {shown.map((f) => (
                  <FriendRow
                    key={f.uid}
                    friend={f}
                    active={f.uid === selectedId}
                    onSelect={() => select(f.uid)}
                    onViewProfile={() => setProfileOf(f)}
                    onUnfriend={() => unfriend.mutate(f)}
                    onBlock={() => setBlockOf({ userId: f.uid, name: f.name })}
                  />
                ))}
              </Stack>
            ) : (
              <Text size="sm" c="dimmed" px="xs">
                {all.length ? MSG.friends.noMatch : MSG.friends.empty}
              </Text>
            )}
          </LoadingWrapper>
        }
        pane={
          selected ? (
            <ChatPane
              key={selected.uid}
              friendId={selected.uid}
              focusCursor={focusCursor}
              onBack={isMobile ? () => select(null) : undefined}
              onBlocked={() => void client.invalidateQueries({ queryKey: socialKeys.friends })}
            />
          ) : blockedSelected ? (
            <ChatPane
              key={`${blockedSelected.uid}:read-only`}
              friendId={blockedSelected.uid}
              focusCursor={focusCursor}
              onBack={isMobile ? () => select(null) : undefined}
              readOnly
            />
          ) : closed ? (
            <ClosedChat onBack={isMobile ? () => select(null) : undefined} />
          ) : null
        }
        placeholder={<PanePlaceholder icon={MessageCircle} text={MSG.friends.selectFriend} />}
      />
      <ProfileModal uid={profileOf?.uid ?? null} onClose={() => setProfileOf(null)} />
      <BlockDialog
        target={blockOf}
        onClose={() => setBlockOf(null)}
        onBlocked={() => void client.invalidateQueries({ queryKey: socialKeys.friends })}
      />
    </>
  );
}

/** A chat that is not open to the student (any more): says so, and never why. */
function ClosedChat({ onBack }: { onBack?: () => void }) {
  return (
    <Stack h="100%" gap={0}>
      {onBack && (
        <Box px="md" py="sm">
          <Button variant="subtle" leftSection={<ArrowLeft size={16} aria-hidden />} onClick={onBack}>
            {MSG.friends.back}
          </Button>
        </Box>
      )}
      <Center style={{ flex: 1 }} p="xl" data-testid="chat-closed">
        <Stack align="center" gap="xs" ta="center" maw={360}>
          <MessageCircleOff size={40} aria-hidden color="var(--mantine-color-dimmed)" />
          <Text fw={600} role="status">
            {MSG.chatClosed.title}
          </Text>
          <Text size="sm" c="dimmed">
            {MSG.chatClosed.body}
          </Text>
        </Stack>
      </Center>
    </Stack>
  );
}
