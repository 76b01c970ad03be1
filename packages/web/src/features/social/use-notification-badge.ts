import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRealtimeConnection, useRealtimeEvent } from '../../lib/realtime.ts';
import { useSession } from '../auth/use-session.ts';
import { FRIEND_REQUEST_EVENT_KEYS, socialApi, socialKeys } from './social-api.ts';
import { usePollInterval } from './use-poll-interval.ts';

/**
 * Pending friend requests and whether any is unviewed, for the sidebar. Live over the real-time channel
 * (`friendRequest.changed` refreshes the requests and friends); while the socket is not open it polls every 5 s.
 */
export function useNotificationBadge() {
  const client = useQueryClient();
  const session = useSession();
  useRealtimeConnection(session.data?.user?.id);
  useRealtimeEvent('friendRequest.changed', () => {
    for (const queryKey of FRIEND_REQUEST_EVENT_KEYS) void client.invalidateQueries({ queryKey });
  });
  const refetchInterval = usePollInterval();
  return useQuery({
    queryKey: socialKeys.badge,
    queryFn: socialApi.badge,
    refetchInterval,
    retry: false,
  });
}
