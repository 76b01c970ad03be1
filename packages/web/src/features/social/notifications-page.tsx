import { useEffect, useState } from 'react';
import { Avatar, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Check, Eye, X } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import { SOCIAL_ERRORS, type IncomingRequest, type NotificationsList } from '@studybuddy/shared/social';
import { ApiRequestError } from '../../lib/api.ts';
import { LoadingWrapper } from '../../ui/loading-wrapper.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { toast } from '../../ui/toast.ts';
import { BlockButton } from '../blocks/index.ts';
import { ProfileModal } from './profile-modal.tsx';
import { socialApi, socialKeys } from './social-api.ts';
import { usePollInterval } from './use-poll-interval.ts';
import { patchMatches } from './use-request-actions.ts';

/** /notifications: incoming friend requests; opening the page marks them all viewed. */
export default function NotificationsPage() {
  const client = useQueryClient();
  const refetchInterval = usePollInterval();
  const list = useQuery({
    queryKey: socialKeys.notifications,
    queryFn: socialApi.notifications,
    refetchInterval,
  });
  const [viewing, setViewing] = useState<IncomingRequest | null>(null);

  // Viewing the page marks every request viewed, including ones that arrive while it is open.
  const { mutate: markAllViewed } = useMutation({
    mutationFn: socialApi.markViewed,
    onSuccess: () => client.invalidateQueries({ queryKey: socialKeys.requests }),
  });
  const hasUnviewed = list.data?.requests.some((r) => !r.viewed) ?? false;
  useEffect(() => {
    if (hasUnviewed) markAllViewed();
  }, [hasUnviewed, markAllViewed]);

  const removeFromList = (id: string) =>
    client.setQueryData<NotificationsList>(socialKeys.notifications, (d) =>
      d ? { requests: d.requests.filter((r) => r.id !== id) } : d,
    );
  const refresh = () => client.invalidateQueries({ queryKey: socialKeys.requests });

  const accept = useMutation({
    mutationFn: (r: IncomingRequest) => socialApi.accept(r.id),
    onSuccess: (_data, r) => {
      toast.success(MSG.match.connected(r.from.name));
      removeFromList(r.id);
      patchMatches(client, r.from.uid, { kind: 'friends' });
      void client.invalidateQueries({ queryKey: socialKeys.friends });
    },
    onError: (err) =>
      toast.error(
        err instanceof ApiRequestError && err.code === SOCIAL_ERRORS.requestNotFound
          ? MSG.match.requestNotFound
          : MSG.notifications.acceptFailed,
      ),
    onSettled: refresh,
  });

  // Decline removes the item at once; on failure the refetch brings it back if it is still pending.
  const decline = useMutation({
    mutationFn: (r: IncomingRequest) => socialApi.decline(r.id),
    onMutate: async (r) => {
      await client.cancelQueries({ queryKey: socialKeys.notifications });
      removeFromList(r.id);
    },
    onSuccess: (_data, r) => patchMatches(client, r.from.uid, { kind: 'none' }),
    onError: () => toast.error(MSG.notifications.declineFailed),
    onSettled: refresh,
  });

  const requests = list.data?.requests ?? [];
  return (
    <Stack maw={720}>
      <PageHeader title={MSG.notifications.title} />
      <Title order={2} size="h4">
        {MSG.notifications.friendRequests}
      </Title>
      <LoadingWrapper loading={list.isPending} error={list.error} message={MSG.loading.loading}>
        {requests.length === 0 ? (
          <Text c="dimmed">{MSG.notifications.empty}</Text>
        ) : (
          <Stack
            gap="sm"
            component="ul"
            p={0}
            m={0}
            style={{ listStyle: 'none' }}
            aria-label={MSG.notifications.friendRequests}
          >
            {requests.map((r) => (
              <Paper key={r.id} component="li" withBorder radius="md" p="md" data-testid="friend-request">
                <Group justify="space-between" wrap="wrap" gap="sm">
                  <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                    <Avatar src={r.from.profilePicture} alt="" radius="xl" size="lg" />
                    <Text>
                      <Text span fw={700}>
                        {r.from.name}
                      </Text>{' '}
                      {MSG.notifications.sentYou}
                    </Text>
                  </Group>
                  <Group gap="xs">
                    <Button
                      variant="default"
                      size="sm"
                      leftSection={<Eye size={16} aria-hidden />}
                      onClick={() => setViewing(r)}
                    >
                      {MSG.notifications.viewProfile}
                    </Button>
                    <Button
                      size="sm"
                      leftSection={<Check size={16} aria-hidden />}
                      loading={accept.isPending && accept.variables?.id === r.id}
                      onClick={() => accept.mutate(r)}
                    >
                      {MSG.notifications.accept}
                    </Button>
                    <Button
                      size="sm"
                      variant="light"
                      color="red"
                      leftSection={<X size={16} aria-hidden />}
                      onClick={() => decline.mutate(r)}
                    >
                      {MSG.notifications.decline}
                    </Button>
                    <BlockButton
                      compact
                      userId={r.from.uid}
                      name={r.from.name}
                      onBlocked={() => {
                        // Blocking withdraws the request: it leaves the list at once.
                        removeFromList(r.id);
                        void refresh();
                      }}
                    />
                  </Group>
                </Group>
              </Paper>
            ))}
          </Stack>
        )}
      </LoadingWrapper>
      <ProfileModal uid={viewing?.from.uid ?? null} onClose={() => setViewing(null)} />
    </Stack>
  );
}
