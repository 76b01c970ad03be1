import { useEffect, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { realtime, type LiveHandlers } from '../lib/realtime.ts';
import { SESSION_KEY } from '../features/auth/index.ts';
import { blocksLive } from '../features/blocks/index.ts';
import { conversationsLive } from '../features/conversations/index.ts';
import { documentsLive } from '../features/documents/index.ts';
import { groupsLive } from '../features/groups/index.ts';
import { profileLive } from '../features/profile/index.ts';
import { socialLive } from '../features/social/index.ts';
import { studySessionsLive } from '../features/study-sessions/index.ts';

/** Each feature's event → cache handlers, registered while the channel is open. */
const LIVE_HANDLERS: LiveHandlers[] = [
  conversationsLive,
  groupsLive,
  socialLive,
  profileLive,
  documentsLive,
  blocksLive,
  studySessionsLive,
];

/** The tab's one real-time channel: open while the signed-in shell is shown, with every feature's handlers. */
export function RealtimeProvider({ me, children }: { me: string; children: ReactNode }) {
  const client = useQueryClient();
  useEffect(() => {
    const release = realtime.acquire(me);
    const offs = LIVE_HANDLERS.map((register) => register({ client, me }));
    // Signed out elsewhere (or the account was disabled): the guard sends this tab to the log-in page at once.
    offs.push(realtime.onSignedOut(() => void client.invalidateQueries({ queryKey: SESSION_KEY })));
    return () => {
      offs.forEach((off) => off());
      release();
    };
  }, [client, me]);
  return children;
}
