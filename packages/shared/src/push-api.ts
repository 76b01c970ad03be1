/** Web Push addresses and the notice the service worker shows: no zod here, the service worker imports it. */
export const PUSH_API = {
  /** GET: the server's VAPID public key (the browser's applicationServerKey). */
  key: '/api/push/key',
  /** POST subscribes this browser, DELETE (with its endpoint) unsubscribes it. */
  subscriptions: '/api/push/subscriptions',
  /** GET / PUT: which notices the student wants. */
  settings: '/api/push/settings',
  /** PUT: mute or unmute a group's message notices. */
  groupMute: (groupId: string) => `/api/push/groups/${encodeURIComponent(groupId)}/mute`,
} as const;

/** The JSON the service worker receives in a push and shows as a notification. */
export interface PushPayload {
  title: string;
  body: string;
  /** The page the notification opens (same origin, a path). */
  url: string;
  /** Notices with one tag replace each other (one per conversation, one per request). */
  tag: string;
}
