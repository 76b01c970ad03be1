import { LIMITS } from '@studybuddy/shared/limits';
import { useRealtimeStatus } from '../../lib/realtime.ts';

/**
 * Poll every 5 s (requirements §9) only while the real-time channel is not open; when it is, events refresh the data.
 */
export function usePollInterval(): number | false {
  return useRealtimeStatus() === 'open' ? false : LIMITS.unreadPollMs;
}
