import type {
  FriendsList,
  MatchPage,
  NotificationBadge,
  NotificationsList,
  PublicProfile,
  SearchResult,
  SendRequestResult,
} from '@studybuddy/shared/social';
import { api } from '../../lib/api.ts';

/** Query keys of the social feature (live-handlers.ts refreshes them on the real-time channel's events). */
export const socialKeys = {
  all: ['social'] as const,
  matches: ['social', 'matches'] as const,
  search: (q: string) => ['social', 'search', q] as const,
  /** Incoming requests: the notifications list and the sidebar badge. */
  requests: ['social', 'requests'] as const,
  notifications: ['social', 'requests', 'list'] as const,
  badge: ['social', 'requests', 'badge'] as const,
  friends: ['social', 'friends'] as const,
  profile: (uid: string) => ['social', 'profile', uid] as const,
};

/** What to invalidate when the server says a friend request (or a friendship) of the viewer changed. */
export const FRIEND_REQUEST_EVENT_KEYS = [socialKeys.requests, socialKeys.friends] as const;

const enc = encodeURIComponent;

export const socialApi = {
  matches: (cursor: string | null, limit = 10) =>
    api<MatchPage>(`/api/social/matches?limit=${limit}${cursor ? `&cursor=${enc(cursor)}` : ''}`),
  search: (q: string) => api<SearchResult>(`/api/social/search?q=${enc(q)}&limit=10`),
  send: (toUserId: string) => api<SendRequestResult>('/api/social/requests', { body: { toUserId } }),
  unsend: (requestId: string) => api(`/api/social/requests/${enc(requestId)}`, { method: 'DELETE' }),
  accept: (requestId: string) =>
    api<{ friendId: string }>(`/api/social/requests/${enc(requestId)}/accept`, { body: {} }),
  decline: (requestId: string) => api(`/api/social/requests/${enc(requestId)}/decline`, { body: {} }),
  notifications: () => api<NotificationsList>('/api/social/notifications'),
  markViewed: () => api<{ updated: number }>('/api/social/notifications/viewed', { body: {} }),
  badge: () => api<NotificationBadge>('/api/social/notifications/badge'),
  friends: () => api<FriendsList>('/api/social/friends'),
  unfriend: (uid: string) => api(`/api/social/friends/${enc(uid)}`, { method: 'DELETE' }),
  profile: (uid: string) => api<PublicProfile>(`/api/social/profiles/${enc(uid)}`),
};
