import { realtime, type LiveHandlers } from '../../lib/realtime.ts';
import { toast } from '../../ui/toast.ts';
import { stamped, studySessionKeys } from './study-sessions-api.ts';

/**
 * Study sessions on the tab's real-time channel: a planned, changed or answered session is loaded again, a room's
 * new state replaces the cached one (the timer and who is here), and the reminder shows in the app.
 */
export const studySessionsLive: LiveHandlers = ({ client }) => {
  const offs = [
    realtime.on('studySession.changed', ({ sessionId, conversation }) => {
      void client.invalidateQueries({ queryKey: studySessionKeys.one(sessionId) });
      void client.invalidateQueries({ queryKey: studySessionKeys.of(conversation) });
    }),
    realtime.on('studySession.room', ({ room }) => {
      client.setQueryData(studySessionKeys.room(room.sessionId), stamped(room));
    }),
    realtime.on('studySession.reminder', ({ title, body }) => toast.info(`${title} · ${body}`)),
  ];
  return () => offs.forEach((off) => off());
};
