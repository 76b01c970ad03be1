import { useEffect } from 'react';
import { realtime } from '../../lib/realtime.ts';
import { rememberLastUser } from './last-user.ts';
import { announceUpdate } from './update-notice.ts';

/**
 * The installable app's side jobs while a student is signed in: this tab tells the server whether it is visible
 * (no push notices while one of the student's tabs is), the offline page knows whose outbox to list, and a new
 * version is announced once.
 */
export function PwaRuntime({ me }: { me: string }) {
  useEffect(() => rememberLastUser(me), [me]);
  useEffect(announceUpdate, []);
  useEffect(() => {
    const report = () => realtime.send({ op: 'visibility', visible: document.visibilityState === 'visible' });
    // Sent whenever the socket (re)opens, and on every change.
    const offStatus = realtime.onStatus(() => {
      if (realtime.status === 'open') report();
    });
    if (realtime.status === 'open') report();
    document.addEventListener('visibilitychange', report);
    return () => {
      offStatus();
      document.removeEventListener('visibilitychange', report);
    };
  }, []);
  return null;
}
