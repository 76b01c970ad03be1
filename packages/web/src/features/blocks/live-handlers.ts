import { realtime, type LiveHandlers } from '../../lib/realtime.ts';
import { blockKeys, prefetchBlocked } from './blocks-api.ts';

/**
 * Blocks on the tab's real-time channel: a block or unblock in another tab comes as `friendRequest.changed` (the
 * student's relations changed), as does any missed event after a reconnection.
 */
export const blocksLive: LiveHandlers = ({ client }) => {
  void prefetchBlocked(client);
  const refresh = () => void client.invalidateQueries({ queryKey: blockKeys.all });
  const offs = [realtime.on('friendRequest.changed', refresh), realtime.onResync(refresh)];
  return () => offs.forEach((off) => off());
};
