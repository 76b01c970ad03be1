import type { ConversationRef } from '@studybuddy/shared/chat';
import type {
  CreateStudySessionInput,
  PresenceInput,
  RoomState,
  RsvpAnswer,
  StudySession,
  StudySessionFields,
  StudySessionList,
} from '@studybuddy/shared/study-sessions';
import { api } from '../../lib/api.ts';

export const studySessionKeys = {
  all: ['study-sessions'] as const,
  one: (id: string) => ['study-sessions', 'one', id] as const,
  room: (id: string) => ['study-sessions', 'room', id] as const,
  of: (ref: ConversationRef) => ['study-sessions', 'of', ref.kind, ref.id] as const,
};

const base = '/api/study-sessions';

/** When this tab received each room state: the timer corrects this tab's clock by the server's. */
const received = new WeakMap<RoomState, number>();
export function stamped(room: RoomState): RoomState {
  received.set(room, Date.now());
  return room;
}
/** How far the server's clock was ahead of this tab's when the state arrived (ms). */
export const skewOf = (room: RoomState) =>
  Date.parse(room.serverNow) - (received.get(room) ?? Date.parse(room.serverNow));

export const studySessionsApi = {
  create: (input: CreateStudySessionInput) => api<StudySession>(base, { body: input }),
  update: (id: string, input: StudySessionFields) => api<StudySession>(`${base}/${id}`, { method: 'PUT', body: input }),
  cancel: (id: string) => api<StudySession>(`${base}/${id}/cancel`, { method: 'POST', body: {} }),
  get: (id: string) => api<StudySession>(`${base}/${id}`),
  of: (ref: ConversationRef) => api<StudySessionList>(`${base}?kind=${ref.kind}&id=${encodeURIComponent(ref.id)}`),
  answer: (id: string, answer: RsvpAnswer) =>
    api<StudySession>(`${base}/${id}/rsvp`, { method: 'PUT', body: { answer } }),
  room: (id: string) => api<RoomState>(`${base}/${id}/room`).then(stamped),
  report: (id: string, input: PresenceInput) =>
    api<RoomState>(`${base}/${id}/room/presence`, { body: input }).then(stamped),
  leave: (id: string) => api<null>(`${base}/${id}/room/presence`, { method: 'DELETE' }),
  timer: (id: string, action: 'start' | 'pause') =>
    api<RoomState>(`${base}/${id}/timer`, { body: { action } }).then(stamped),
  end: (id: string) => api<RoomState>(`${base}/${id}/end`, { body: {} }).then(stamped),
  icsUrl: (id: string) => `${base}/${id}/ics`,
};

/** This browser's IANA time zone (sessions are planned in it). */
export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
