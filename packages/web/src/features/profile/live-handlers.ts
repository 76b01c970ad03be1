import { realtime, type LiveHandlers } from '../../lib/realtime.ts';
import { SESSION_KEY } from '../auth/index.ts';
import { PROFILE_KEY } from './profile-api.ts';

/** The student's own profile changed (in another tab or device): the session and the profile are refetched. */
export const profileLive: LiveHandlers = ({ client, me }) =>
  realtime.on('profile.changed', (e) => {
    if (e.userId !== me) return;
    void client.invalidateQueries({ queryKey: SESSION_KEY });
    void client.invalidateQueries({ queryKey: PROFILE_KEY });
  });
