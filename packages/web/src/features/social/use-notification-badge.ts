import { useQuery } from '@tanstack/react-query';
import { socialApi, socialKeys } from './social-api.ts';
import { usePollInterval } from './use-poll-interval.ts';

/**
 * Pending friend requests and whether any is unviewed, for the sidebar. Live over the real-time channel
 * (`friendRequest.changed` refreshes it: live-handlers.ts); while the socket is not open it polls every 5 s.
 */
export function useNotificationBadge() {
  const refetchInterval = usePollInterval();
  return useQuery({
    queryKey: socialKeys.badge,
    queryFn: socialApi.badge,
    refetchInterval,
    retry: false,
  });
}
