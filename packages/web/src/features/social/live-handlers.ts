import { realtime, type LiveHandlers } from '../../lib/realtime.ts';
import { FRIEND_REQUEST_EVENT_KEYS, socialKeys } from './social-api.ts';

/** Friend requests, friendships and other students' profiles on the tab's real-time channel. */
export const socialLive: LiveHandlers = ({ client, me }) => {
  const offs = [
    realtime.on('friendRequest.changed', () => void client.invalidateQueries({ queryKey: socialKeys.all })),
    realtime.on('profile.changed', (e) => {
      if (e.userId !== me) void client.invalidateQueries({ queryKey: socialKeys.all });
    }),
    realtime.onResync(() => {
      for (const queryKey of FRIEND_REQUEST_EVENT_KEYS) void client.invalidateQueries({ queryKey });
    }),
  ];
  return () => offs.forEach((off) => off());
};
